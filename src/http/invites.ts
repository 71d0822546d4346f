import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import type { CommandMetadata } from '../../domain/decider';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { InviteInput, MAX_BULK_INVITES } from '../../domain/organization/invites';
import type { Services } from '../container';
import type { InviteDoc, ProjectDoc, UserDoc } from '../identity/documents';
import { emailSchema } from '../identity/email';
import { organizationAccess, OrganizationAccess } from './access';
import { created, empty, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializeInvite } from './serializers';
import { parseBody, parseWith, readJsonBody } from './validation';

const inviteSchema = z.object({
  target_email: emailSchema,
  first_name: z.string().trim().max(30).optional().default(''),
  level: z.literal([1, 8, 15]).optional().default(1),
  message: z.string().max(5000).nullable().optional().default(null),
  private_project_access: z
    .array(z.object({ id: z.number().int(), level: z.enum(['member', 'admin']) }))
    .nullable()
    .optional()
    .transform((v) => v ?? []),
  send_email: z.boolean().optional().default(true),
  combine_pending_invites: z.boolean().optional().default(false),
});
type InviteBody = z.output<typeof inviteSchema>;

export function invitesRouter(services: Services) {
  const router = Router();
  const base = '/api/organizations/:organization_id/invites/';

  /** Turns parsed bodies into one InviteMembers command: the lookups decide needs ride along in its data. */
  async function invite(access: OrganizationAccess, bodies: InviteBody[], metadata: CommandMetadata) {
    const invites: InviteInput[] = [];
    for (const body of bodies) {
      const existing = (await services.readStore.find<UserDoc>('users', { email: body.target_email }, { limit: 1 }))[0];
      invites.push({
        id: randomUUID(),
        targetEmail: body.target_email,
        firstName: body.first_name,
        level: body.level,
        message: body.message,
        privateProjectAccess: body.private_project_access,
        sendEmail: body.send_email,
        existingUserId: existing?.id ?? null,
        combinePendingInvites: body.combine_pending_invites,
      });
    }
    const projects = await services.readStore.find<ProjectDoc>('projects', { organization_id: access.organization.id });
    await services.commands.handle(organizationDecider, organizationStream(access.organization.id), {
      type: 'InviteMembers',
      data: { invites, projectIds: projects.map((p) => p.id) },
      metadata,
    });
    return invites;
  }

  const serialize = async (invites: InviteDoc[], now: string) => {
    const users = await services.readStore.getMany<UserDoc>('users', [...new Set(invites.map((i) => i.created_by))]);
    const byId = new Map(users.map((u) => [u.id, u]));
    return invites.map((i) => serializeInvite(i, byId.get(i.created_by), now));
  };

  resource(router, services, base, {
    get: {
      scope: 'organization_member:read',
      handler: async ({ req, principal, metadata }) => {
        const { organization } = await organizationAccess(services, principal, String(req.params.organization_id));
        const page = pageOf(req);
        const filter = { organization_id: organization.id };
        const count = await services.readStore.count('organization_invites', filter);
        const invites = await services.readStore.find<InviteDoc>('organization_invites', filter, {
          sort: [['created_at', -1], ['id', 1]],
          skip: page.offset,
          limit: page.limit,
        });
        return ok(paginated(req, services.config.PUBLIC_URL, page, count, await serialize(invites, metadata.now)));
      },
    },
    post: {
      scope: 'organization_member:write',
      handler: async ({ req, principal, metadata }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        const [made] = await invite(access, [parseBody(req, inviteSchema)], metadata);
        const doc = await services.readStore.get<InviteDoc>('organization_invites', made.id);
        if (!doc) throw apiErrors.notFound();
        return created((await serialize([doc], metadata.now))[0]);
      },
    },
  });
  // Before `{id}/`, so that POST …/bulk/ is not taken for a method on an invite.
  resource(router, services, `${base}bulk/`, {
    post: {
      scope: 'organization_member:write',
      handler: async ({ req, principal, metadata }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        const raw = readJsonBody(req);
        const items = Array.isArray(raw) ? raw : [raw];
        if (items.length > MAX_BULK_INVITES) {
          throw apiErrors.validation(`A maximum of ${MAX_BULK_INVITES} invites can be sent in a single request.`, null, 'max_length');
        }
        // All or nothing: every item is checked before the single command that creates them all.
        await invite(access, parseWith(z.array(inviteSchema), items), metadata);
        return empty(200);
      },
    },
  });
  resource(router, services, `${base}:invite_id/`, {
    delete: {
      scope: 'organization_member:write',
      handler: async ({ req, principal, metadata, ifMatch }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        const doc = await services.readStore.get<InviteDoc>('organization_invites', String(req.params.invite_id).toLowerCase());
        if (!doc || doc.organization_id !== access.organization.id) throw apiErrors.notFound();
        await services.commands.handle(
          organizationDecider,
          organizationStream(access.organization.id),
          { type: 'DeleteInvite', data: { inviteId: doc.id }, metadata },
          { expectedRevision: ifMatch },
        );
        return empty(204);
      },
    },
  });
  return router;
}
