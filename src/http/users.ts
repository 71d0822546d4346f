import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { isExpired } from '../../domain/organization/invites';
import { userDecider, userStream } from '../../domain/user';
import type { Services } from '../container';
import { userSummary, type ApiKeyDoc, type InviteDoc, type MemberDoc, type OrganizationDoc, type ProjectDoc, type UserDoc } from '../identity/documents';
import { releaseUniqueValue } from '../commands/unique-values';
import { createUser, USER_EMAIL } from '../identity/provisioning';
import { hashPassword } from '../identity/secrets';
import { created, ok, publicResource, resource } from './endpoint';
import { apiErrors } from './errors';
import { serializeOrganization } from './serializers';
import { startSession } from './sessions';
import { parseBody } from './validation';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The caller as /api/users/@me/ shows it (signup answers with the same shape). */
async function me(services: Services, user: UserDoc, key: ApiKeyDoc | null) {
  const memberships = await services.readStore.find<MemberDoc>('organization_members', { user_id: user.id }, { sort: [['joined_at', 1]] });
  const organizations = await services.readStore.getMany<OrganizationDoc>('organizations', memberships.map((m) => m.organization_id));
  const current = organizations.find((o) => o.id === user.current_organization_id) ?? null;
  const team = user.current_team_id ? await services.readStore.get<ProjectDoc>('projects', user.current_team_id) : null;
  const levelOf = (orgId: string) => memberships.find((m) => m.organization_id === orgId)?.level ?? null;
  return {
    ...userSummary(user)!,
    date_joined: user.date_joined,
    organization: current && serializeOrganization(current, levelOf(current.id)),
    team: team && { id: team.id, uuid: team.uuid, name: team.name, organization: team.organization_id, api_token: team.api_token },
    organizations: memberships
      .map((m) => organizations.find((o) => o.id === m.organization_id))
      .filter((o): o is OrganizationDoc => o !== undefined)
      .map((o) => ({ id: o.id, name: o.name, slug: o.slug, membership_level: levelOf(o.id) })),
    scopes: key ? key.scopes : ['*'],
  };
}

const signupSchema = z.object({
  first_name: z.string().trim().min(1).max(150),
  last_name: z.string().trim().max(150).optional(),
  password: z
    .string()
    .max(4096)
    .refine((p) => p.length >= 8, { message: 'This password is too short. It must contain at least 8 characters.', params: { code: 'password_too_short' } }),
});

const invalidInvite = () => apiErrors.validation('The provided invite ID is not valid.');

/** The caller, and how a person joins: signing up through an invite. */
export function usersRouter(services: Services) {
  const router = Router();
  resource(router, services, '/api/users/@me/', {
    get: { scope: null, handler: async ({ principal }) => ok(await me(services, principal.user, principal.key)) },
  });
  publicResource(router, services, '/api/signup/:invite_id/', {
    post: {
      handler: async ({ req, res, metadata }) => {
        const body = parseBody(req, signupSchema);
        const inviteId = String(req.params.invite_id);
        const invite = UUID.test(inviteId) ? await services.readStore.get<InviteDoc>('organization_invites', inviteId.toLowerCase()) : null;
        if (!invite) throw invalidInvite();
        if (isExpired(invite.created_at, metadata.now)) throw apiErrors.validation('This invite has expired. Please ask your admin for a new one.', null, 'expired');
        if ((await services.readStore.count('users', { email: invite.target_email })) > 0) {
          throw apiErrors.validation('There is already an account with this email address.', 'email', 'unique');
        }
        // The checks above refuse most bad signups before anything is written. AcceptInvite checks again, atomically
        // on the organization's stream; if the invite went meanwhile (deleted, replaced, used by a concurrent signup,
        // expired), the user just made is cancelled, so no account without an organization is left behind.
        const user = await createUser(services, metadata, {
          email: invite.target_email,
          firstName: body.first_name,
          lastName: body.last_name,
          passwordHash: hashPassword(body.password),
        });
        const acting = { ...metadata, userId: user.id };
        try {
          await services.commands.handle(organizationDecider, organizationStream(invite.organization_id), {
            type: 'AcceptInvite',
            data: { inviteId: invite.id, userId: user.id, userUuid: user.uuid, membershipId: randomUUID() },
            metadata: acting,
          });
        } catch (error) {
          await services.commands.handle(userDecider, userStream(user.id), { type: 'CancelSignUp', data: {}, metadata: acting });
          await releaseUniqueValue(services, acting, USER_EMAIL, user.email, String(user.id));
          throw error;
        }
        const organization = await services.readStore.get<OrganizationDoc>('organizations', invite.organization_id);
        await services.commands.handle(userDecider, userStream(user.id), {
          type: 'SwitchOrganization',
          data: { organizationId: invite.organization_id, teamId: organization?.teams[0]?.id ?? null },
          metadata: acting,
        });
        await startSession(services, req, res, user.id, metadata);
        const doc = await services.readStore.get<UserDoc>('users', user.id);
        return created(await me(services, doc!, null));
      },
    },
  });
  return router;
}
