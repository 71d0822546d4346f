import { Router } from 'express';
import type { Services } from '../container';
import type { MemberDoc, OrganizationDoc } from '../identity/documents';
import { organizationAccess } from './access';
import { ok, resource } from './endpoint';
import { pageOf, paginated } from './pagination';
import { serializeOrganization } from './serializers';

export function organizationsRouter(services: Services) {
  const router = Router();
  resource(router, services, '/api/organizations/', {
    get: {
      scope: 'organization:read',
      handler: async ({ req, principal }) => {
        const page = pageOf(req);
        const filter: Record<string, unknown> = { user_id: principal.user.id };
        const scoped = principal.key?.scoped_organizations ?? [];
        if (scoped.length) filter.organization_id = { $in: scoped };
        const count = await services.readStore.count('organization_members', filter);
        const memberships = await services.readStore.find<MemberDoc>('organization_members', filter, {
          sort: [['joined_at', 1]],
          skip: page.offset,
          limit: page.limit,
        });
        const orgs = await services.readStore.getMany<OrganizationDoc>('organizations', memberships.map((m) => m.organization_id));
        const byId = new Map(orgs.map((o) => [o.id, o]));
        const results = memberships.filter((m) => byId.has(m.organization_id)).map((m) => serializeOrganization(byId.get(m.organization_id)!, m.level));
        return ok(paginated(req, services.config.PUBLIC_URL, page, count, results));
      },
    },
  });
  resource(router, services, '/api/organizations/:organization_id/', {
    get: {
      scope: 'organization:read',
      handler: async ({ req, principal }) => {
        const { organization, membership } = await organizationAccess(services, principal, String(req.params.organization_id));
        return ok(serializeOrganization(organization, membership.level));
      },
    },
  });
  return router;
}
