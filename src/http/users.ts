import { Router } from 'express';
import type { Services } from '../container';
import type { MemberDoc, OrganizationDoc, ProjectDoc } from '../identity/documents';
import { resource, ok } from './endpoint';
import { serializeOrganization } from './serializers';

/** The caller: enough for a client to find its organization and project ids. Any valid key may ask. */
export function usersRouter(services: Services) {
  const router = Router();
  resource(router, services, '/api/users/@me/', {
    get: {
      scope: null,
      handler: async ({ principal }) => {
        const { user } = principal;
        const memberships = await services.readStore.find<MemberDoc>('organization_members', { user_id: user.id }, { sort: [['joined_at', 1]] });
        const organizations = await services.readStore.getMany<OrganizationDoc>('organizations', memberships.map((m) => m.organization_id));
        const current = organizations.find((o) => o.id === user.current_organization_id) ?? null;
        const team = user.current_team_id ? await services.readStore.get<ProjectDoc>('projects', user.current_team_id) : null;
        const levelOf = (orgId: string) => memberships.find((m) => m.organization_id === orgId)?.level ?? null;
        return ok({
          id: user.id,
          uuid: user.uuid,
          distinct_id: user.distinct_id,
          first_name: user.first_name,
          last_name: user.last_name,
          email: user.email,
          is_email_verified: user.is_email_verified,
          date_joined: user.date_joined,
          hedgehog_config: null,
          organization: current && serializeOrganization(current, levelOf(current.id)),
          team: team && { id: team.id, uuid: team.uuid, name: team.name, organization: team.organization_id, api_token: team.api_token },
          organizations: organizations.map((o) => ({ id: o.id, name: o.name, slug: o.slug, membership_level: levelOf(o.id) })),
          scopes: principal.key ? principal.key.scopes : ['*'],
        });
      },
    },
  });
  return router;
}
