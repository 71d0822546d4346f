import { Router } from 'express';
import { z } from 'zod';
import { MembershipLevel } from '../../domain/organization/levels';
import { projectDecider, projectStream } from '../../domain/project';
import type { ResetProjectToken, UpdateProject } from '../../domain/project/commands';
import type { Services } from '../container';
import type { ProjectDoc } from '../identity/documents';
import { createProject } from '../identity/provisioning';
import { generateToken } from '../identity/secrets';
import { organizationAccess, projectAccess, requireLevel } from './access';
import { Context, created, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializeProject } from './serializers';
import { parseBody } from './validation';

const projectName = z.string().trim().min(1).max(200);
const createSchema = z.object({ name: projectName });
const updateSchema = z.object({ name: projectName.optional() });

export function projectsRouter(services: Services) {
  const router = Router();
  const reload = async (id: number) => {
    const project = await services.readStore.get<ProjectDoc>('projects', id);
    if (!project) throw apiErrors.notFound('Project not found.');
    return project;
  };
  const list = async (req: Context['req'], principal: Context['principal'], organizationId: string) => {
    const page = pageOf(req);
    const filter: Record<string, unknown> = { organization_id: organizationId };
    const scopedTeams = principal.key?.scoped_teams ?? [];
    if (scopedTeams.length) filter.id = { $in: scopedTeams };
    const count = await services.readStore.count('projects', filter);
    const results = await services.readStore.find<ProjectDoc>('projects', filter, { sort: [['id', 1]], skip: page.offset, limit: page.limit });
    return ok(paginated(req, services.config.PUBLIC_URL, page, count, results.map(serializeProject)));
  };
  /** Admins change projects (the reference's team management permission); members read them. */
  const change = async (ctx: Context, command: () => Omit<UpdateProject, 'metadata'> | Omit<ResetProjectToken, 'metadata'>) => {
    const access = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
    requireLevel(access, MembershipLevel.admin);
    const { revision } = await services.commands.handle(
      projectDecider,
      projectStream(access.project.id),
      { ...command(), metadata: ctx.metadata },
      { expectedRevision: ctx.ifMatch },
    );
    return ok(serializeProject(await reload(access.project.id)), revision);
  };

  resource(router, services, '/api/projects/', {
    get: {
      scope: 'project:read',
      handler: async ({ req, principal }) => {
        const orgId = principal.user.current_organization_id;
        if (!orgId) throw apiErrors.notFound('Organization not found.');
        // A key limited to projects may still list them: the list is cut down to its projects below.
        const { organization } = await organizationAccess(services, { ...principal, key: principal.key && { ...principal.key, scoped_teams: [] } }, orgId);
        return list(req, principal, organization.id);
      },
    },
  });
  resource(router, services, '/api/organizations/:organization_id/projects/', {
    get: {
      scope: 'project:read',
      handler: async ({ req, principal }) => {
        const { organization } = await organizationAccess(services, principal, String(req.params.organization_id));
        return list(req, principal, organization.id);
      },
    },
    post: {
      scope: 'project:write',
      handler: async ({ req, principal, metadata }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        requireLevel(access, MembershipLevel.admin);
        const body = parseBody(req, createSchema);
        const project = await createProject(services, metadata, { organizationId: access.organization.id, name: body.name });
        return created(serializeProject(await reload(project.id)));
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
    patch: {
      scope: 'project:write',
      handler: (ctx) => change(ctx, () => ({ type: 'UpdateProject', data: parseBody(ctx.req, updateSchema) })),
    },
  });
  resource(router, services, '/api/projects/:project_id/reset_token/', {
    patch: {
      scope: 'project:write',
      // The old token stops resolving as soon as this answers: ingestion reads the same (awaited) read model.
      handler: (ctx) => change(ctx, () => ({ type: 'ResetProjectToken', data: { apiToken: generateToken('phc_') } })),
    },
  });
  return router;
}
