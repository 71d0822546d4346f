import { Router } from 'express';
import { z } from 'zod';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { membershipId } from '../../projections/organization-members';
import type { Services } from '../container';
import type { MemberDoc, UserDoc } from '../identity/documents';
import { normalizeEmail } from '../identity/email';
import { moveOffOrganization } from '../identity/provisioning';
import { organizationAccess, OrganizationAccess } from './access';
import type { Principal } from './auth';
import { empty, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializeMember } from './serializers';
import { parseBody, parseQuery } from './validation';

const listQuery = z.object({
  order: z.enum(['joined_at', '-joined_at']).optional(),
  email: z.string().optional(),
});
const updateSchema = z.object({ level: z.literal([1, 8, 15]) });

export function membersRouter(services: Services) {
  const router = Router();
  const base = '/api/organizations/:organization_id/members/';

  /** The membership named by {user__uuid} ('@me' is the caller), in this organization only: 404 otherwise. */
  async function target(access: OrganizationAccess, principal: Principal, uuidParam: string) {
    const user =
      uuidParam === '@me'
        ? principal.user
        : (await services.readStore.find<UserDoc>('users', { uuid: uuidParam.toLowerCase() }, { limit: 1 }))[0];
    const member = user && (await services.readStore.get<MemberDoc>('organization_members', membershipId(access.organization.id, user.id)));
    if (!user || !member) throw apiErrors.notFound();
    return { user, member };
  }

  resource(router, services, base, {
    get: {
      scope: 'organization_member:read',
      handler: async ({ req, principal }) => {
        const { organization } = await organizationAccess(services, principal, String(req.params.organization_id));
        const query = parseQuery(req, listQuery);
        const page = pageOf(req);
        const filter: Record<string, unknown> = { organization_id: organization.id };
        if (query.email !== undefined) {
          const users = await services.readStore.find<UserDoc>('users', { email: normalizeEmail(query.email) }, { limit: 1 });
          filter.user_id = users[0]?.id ?? -1;
        }
        const count = await services.readStore.count('organization_members', filter);
        const members = await services.readStore.find<MemberDoc>('organization_members', filter, {
          sort: [['joined_at', query.order === 'joined_at' ? 1 : -1], ['user_id', query.order === 'joined_at' ? 1 : -1]],
          skip: page.offset,
          limit: page.limit,
        });
        const users = await services.readStore.getMany<UserDoc>('users', members.map((m) => m.user_id));
        const byId = new Map(users.map((u) => [u.id, u]));
        return ok(paginated(req, services.config.PUBLIC_URL, page, count, members.map((m) => serializeMember(m, byId.get(m.user_id)))));
      },
    },
  });
  resource(router, services, `${base}:user_uuid/`, {
    patch: {
      scope: 'organization_member:write',
      handler: async ({ req, principal, metadata, ifMatch }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        const { user, member } = await target(access, principal, String(req.params.user_uuid));
        const body = parseBody(req, updateSchema);
        const { revision } = await services.commands.handle(
          organizationDecider,
          organizationStream(access.organization.id),
          { type: 'ChangeMemberLevel', data: { userId: user.id, level: body.level }, metadata },
          { expectedRevision: ifMatch },
        );
        const updated = await services.readStore.get<MemberDoc>('organization_members', member._id);
        return ok(serializeMember(updated ?? member, user), revision);
      },
    },
    delete: {
      scope: 'organization_member:write',
      handler: async ({ req, principal, metadata, ifMatch }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        const { user } = await target(access, principal, String(req.params.user_uuid));
        await services.commands.handle(
          organizationDecider,
          organizationStream(access.organization.id),
          { type: 'RemoveMember', data: { userId: user.id }, metadata },
          { expectedRevision: ifMatch },
        );
        await moveOffOrganization(services, metadata, [user.id], access.organization.id);
        return empty(204);
      },
    },
  });
  return router;
}
