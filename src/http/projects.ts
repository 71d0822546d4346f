import { Router } from 'express';
import type { Services } from '../container';
import type { ProjectDoc } from '../identity/documents';
import { organizationAccess, projectAccess } from './access';
import { ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializeProject } from './serializers';

export function projectsRouter(services: Services) {
  const router = Router();
  resource(router, services, '/api/projects/', {
    get: {
      scope: 'project:read',
      handler: async ({ req, principal }) => {
        const orgId = principal.user.current_organization_id;
        if (!orgId) throw apiErrors.notFound('Organization not found.');
        const { organization } = await organizationAccess(services, { ...principal, key: principal.key && { ...principal.key, scoped_teams: [] } }, orgId);
        const page = pageOf(req);
        const filter: Record<string, unknown> = { organization_id: organization.id };
        const scopedTeams = principal.key?.scoped_teams ?? [];
        if (scopedTeams.length) filter.id = { $in: scopedTeams };
        const count = await services.readStore.count('projects', filter);
        const results = await services.readStore.find<ProjectDoc>('projects', filter, { sort: [['id', 1]], skip: page.offset, limit: page.limit });
        return ok(paginated(req, services.config.PUBLIC_URL, page, count, results.map(serializeProject)));
      },
    },
  });
  resource(router, services, '/api/projects/:project_id/', {
    get: {
      scope: 'project:read',
      handler: async ({ req, principal }) => {
        const { project } = await projectAccess(services, principal, String(req.params.project_id));
        return ok(serializeProject(project));
      },
    },
  });
  return router;
}
