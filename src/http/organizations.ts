import { Router } from 'express';
import { z } from 'zod';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { MembershipLevel } from '../../domain/organization/levels';
import type { Services } from '../container';
import type { MemberDoc, OrganizationDoc, ProjectDoc } from '../identity/documents';
import { createOrganization, moveOffOrganization } from '../identity/provisioning';
import { organizationAccess, requireLevel } from './access';
import type { Principal } from './auth';
import { created, empty, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializeOrganization } from './serializers';
import { parseBody } from './validation';

const fields = {
  name: z.string().trim().min(1).max(64),
  logo_media_id: z.uuid().nullable().optional(),
  is_member_join_email_enabled: z.boolean().optional(),
  enforce_2fa: z.boolean().nullable().optional(),
};
const createSchema = z.object(fields);
const updateSchema = z.object(fields).partial();

const settingsOf = (body: z.output<typeof updateSchema>) => ({
  logoMediaId: body.logo_media_id,
  isMemberJoinEmailEnabled: body.is_member_join_email_enabled,
  enforce2fa: body.enforce_2fa,
});

/** Keys limited to projects only work on project URLs (the reference's text). */
function refuseProjectScopedKey(principal: Principal) {
  if (principal.key && principal.key.scoped_teams.length > 0) {
    throw apiErrors.permissionDenied('API keys with scoped projects are only supported on project-based endpoints.');
  }
}

export function organizationsRouter(services: Services) {
  const router = Router();
  const reload = async (id: string) => {
    const organization = await services.readStore.get<OrganizationDoc>('organizations', id);
    if (!organization) throw apiErrors.notFound('Organization not found.');
    return organization;
  };
  resource(router, services, '/api/organizations/', {
    get: {
      scope: 'organization:read',
      handler: async ({ req, principal }) => {
        refuseProjectScopedKey(principal);
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
    post: {
      scope: 'organization:write',
      handler: async ({ req, principal, metadata }) => {
        refuseProjectScopedKey(principal);
        const body = parseBody(req, createSchema);
        const { id } = await createOrganization(services, metadata, { name: body.name, owner: principal.user, settings: settingsOf(body) });
        return created(serializeOrganization(await reload(id), MembershipLevel.owner));
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
    patch: {
      scope: 'organization:write',
      handler: async ({ req, principal, metadata, ifMatch }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        requireLevel(access, MembershipLevel.admin);
        const body = parseBody(req, updateSchema);
        const { revision } = await services.commands.handle(
          organizationDecider,
          organizationStream(access.organization.id),
          { type: 'UpdateOrganization', data: { name: body.name, ...settingsOf(body) }, metadata },
          { expectedRevision: ifMatch },
        );
        return ok(serializeOrganization(await reload(access.organization.id), access.membership.level), revision);
      },
    },
    delete: {
      scope: 'organization:write',
      handler: async ({ req, principal, metadata, ifMatch }) => {
        const access = await organizationAccess(services, principal, String(req.params.organization_id));
        requireLevel(access, MembershipLevel.owner);
        const projects = await services.readStore.find<ProjectDoc>('projects', { organization_id: access.organization.id });
        const { events } = await services.commands.handle(
          organizationDecider,
          organizationStream(access.organization.id),
          { type: 'DeleteOrganization', data: { projectIds: projects.map((p) => p.id) }, metadata },
          { expectedRevision: ifMatch },
        );
        const deleted = events.find((e) => e.type === 'OrganizationDeleted');
        const memberUserIds = (deleted?.data as { memberUserIds?: number[] } | undefined)?.memberUserIds ?? [];
        await moveOffOrganization(services, metadata, memberUserIds, access.organization.id);
        return empty(204);
      },
    },
  });
  return router;
}
