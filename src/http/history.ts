import { Router } from 'express';
import type { Request } from 'express';
import { z } from 'zod';
import type { Doc } from '../readstore/port';
import type { Services } from '../container';
import { filterActivity, toActivityEntries, TrackedItem } from '../history/activity';
import {
  batchExportHistory,
  dashboardHistory,
  domainHistory,
  HistorySource,
  historySources,
  inviteHistory,
  memberHistory,
  organizationHistory,
  pluginHistory,
} from '../history/sources';
import { documentAsOf, documentTimeline } from '../history/timeline';
import type { UserDoc } from '../identity/documents';
import type { Scope } from '../identity/scopes';
import { serializeDashboard } from '../dashboards/serializer';
import { organizationAccess, projectAccess } from './access';
import { serializeExport } from './batch-exports';
import { serializeDomain } from './domains';
import { conditionalOperation, Context, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { serializePlugin } from './plugins';
import { PLUGIN_GROUPS } from '../../domain/plugin/rules';
import { serializeOrganization } from './serializers';
import { parseQuery } from './validation';

/** Where a history reading is served, and how the URL's access rules and the resource's own shape apply to it. */
type HistoryEndpoint = {
  source: HistorySource;
  path: string;
  readScope: Scope;
  /**
   * Checks access through the URL (once per request) and names the item; `belongs` rejects a document of another
   * parent (404); `show` is how the resource's retrieve shows a document, absent where there is no retrieve.
   */
  locate(ctx: Context): Promise<{ item: TrackedItem; belongs(doc: Doc): boolean; show?(doc: Doc): Promise<unknown> }>;
};

const located = (source: HistorySource, id: unknown) => {
  const item = typeof id === 'string' ? source.byId(id) : null;
  if (!item) throw apiErrors.notFound();
  return item;
};

const endpoints = (services: Services): HistoryEndpoint[] => {
  const organizationOf = (ctx: Context) => organizationAccess(services, ctx.principal, String(ctx.req.params.organization_id));
  return [
    {
      source: dashboardHistory,
      path: '/api/projects/:project_id/dashboards/:id/',
      readScope: 'dashboard:read',
      async locate(ctx) {
        const { project, membership } = await projectAccess(services, ctx.principal, String(ctx.req.params.project_id));
        return {
          item: located(dashboardHistory, ctx.req.params.id),
          belongs: (doc) => doc.project_id === project.id,
          async show(doc) {
            const creator = doc.created_by ? await services.readStore.get<UserDoc>('users', doc.created_by) : null;
            return serializeDashboard(doc as any, creator, { userId: ctx.principal.user.id, organizationLevel: membership.level });
          },
        };
      },
    },
    {
      source: organizationHistory,
      path: '/api/organizations/:organization_id/',
      readScope: 'organization:read',
      async locate(ctx) {
        const { organization, membership } = await organizationOf(ctx);
        return {
          item: located(organizationHistory, organization.id),
          belongs: () => true,
          // Projects are not part of the organization's own stream: show the current ones beside its past fields.
          show: async (doc) =>
            serializeOrganization({ ...organization, ...doc, teams: organization.teams, member_count: organization.member_count } as any, membership.level),
        };
      },
    },
    {
      source: domainHistory,
      path: '/api/organizations/:organization_id/domains/:id/',
      readScope: 'organization:read',
      async locate(ctx) {
        const { organization } = await organizationOf(ctx);
        return {
          item: located(domainHistory, ctx.req.params.id),
          belongs: (doc) => doc.organization_id === organization.id,
          show: async (doc) => serializeDomain(doc),
        };
      },
    },
    {
      source: memberHistory,
      path: '/api/organizations/:organization_id/members/:user_uuid/',
      readScope: 'organization_member:read',
      async locate(ctx) {
        const { organization } = await organizationOf(ctx);
        const uuid = String(ctx.req.params.user_uuid);
        const user = uuid === '@me' ? ctx.principal.user : (await services.readStore.find<UserDoc>('users', { uuid }, { limit: 1 }))[0];
        if (!user) throw apiErrors.notFound();
        return { item: located(memberHistory, `${organization.id}:${user.id}`), belongs: () => true };
      },
    },
    {
      source: inviteHistory,
      path: '/api/organizations/:organization_id/invites/:id/',
      readScope: 'organization_member:read',
      async locate(ctx) {
        const { organization } = await organizationOf(ctx);
        return { item: located(inviteHistory, `${organization.id}:${String(ctx.req.params.id)}`), belongs: () => true };
      },
    },
    {
      source: batchExportHistory,
      path: '/api/organizations/:organization_id/batch_exports/:id/',
      readScope: 'batch_export:read',
      async locate(ctx) {
        const { organization } = await organizationOf(ctx);
        return {
          item: located(batchExportHistory, ctx.req.params.id),
          belongs: (doc) => doc.organization_id === organization.id,
          show: (doc) => serializeExport(services, doc as any),
        };
      },
    },
    ...PLUGIN_GROUPS.map(
      (group): HistoryEndpoint => ({
        source: pluginHistory,
        path: `/api/organizations/:organization_id/${group}/:id/`,
        readScope: 'plugin:read',
        async locate(ctx) {
          const { organization } = await organizationOf(ctx);
          return {
            item: located(pluginHistory, ctx.req.params.id),
            belongs: (doc) => doc.organization_id === organization.id || doc.is_global === true,
            async show(doc) {
              const owner = await services.readStore.get<Doc>('organizations', doc.organization_id);
              return serializePlugin(doc, (owner?.name as string | undefined) ?? null);
            },
          };
        },
      }),
    ),
  ];
};

/** Members and invites have no retrieve in the interface: only their activity is served. */
const WITHOUT_RETRIEVE = new Set([memberHistory, inviteHistory]);

const asOfQuery = z.object({
  as_of: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Enter a valid ISO 8601 date-time.' })
    .optional(),
  revision: z
    .string()
    .regex(/^\d+$/, { message: 'A valid non-negative integer is required.' })
    .optional(),
});

const activityQuery = z.object({
  user: z.string().optional(),
  after: z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Enter a valid ISO 8601 date-time.' }).optional(),
  before: z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Enter a valid ISO 8601 date-time.' }).optional(),
});

const wantsHistory = (req: Request) => req.query.as_of !== undefined || req.query.revision !== undefined;

/** Paginated activity entries of the given items, newest first. */
async function activityPage(services: Services, ctx: Context, items: { source: HistorySource; item: TrackedItem; belongs?: (doc: Doc) => boolean }[]) {
  const query = parseQuery(ctx.req, activityQuery);
  const rows = [];
  for (const { source, item, belongs } of items) {
    const timeline = await documentTimeline(services.eventStore, source.projection, item.stream, item.key, source.hidden);
    const first = timeline[0]?.after;
    if (belongs && (!first || !belongs(first))) throw apiErrors.notFound();
    for (const entry of timeline) rows.push({ source, item, entry });
  }
  const entries = filterActivity(await toActivityEntries(services, rows), {
    user: query.user,
    after: query.after ? new Date(query.after) : undefined,
    before: query.before ? new Date(query.before) : undefined,
  });
  const page = pageOf(ctx.req);
  return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, entries.length, entries.slice(page.offset, page.offset + page.limit)));
}

/**
 * History as a feature: `?as_of=<ISO>` or `?revision=N` on a retrieve folds the resource from its events as it was
 * then (404 where it did not exist yet), and `…/{id}/activity/` lists its changes. Registered before the resource
 * routers; a retrieve without those parameters passes through to its own router.
 */
export function historyRouter(services: Services) {
  const router = Router();
  resource(router, services, '/api/organizations/:organization_id/activity/', {
    get: {
      scope: 'activity_log:read',
      handler: async (ctx) => {
        const { organization } = await organizationAccess(services, ctx.principal, String(ctx.req.params.organization_id));
        const items = [];
        for (const source of historySources) {
          for (const item of await source.inOrganization(services, organization.id)) items.push({ source, item });
        }
        return activityPage(services, ctx, items);
      },
    },
  });
  for (const endpoint of endpoints(services)) {
    resource(router, services, `${endpoint.path}activity/`, {
      get: {
        scope: 'activity_log:read',
        handler: async (ctx) => {
          const { item, belongs } = await endpoint.locate(ctx);
          return activityPage(services, ctx, [{ source: endpoint.source, item, belongs }]);
        },
      },
    });
    if (WITHOUT_RETRIEVE.has(endpoint.source)) continue;
    router.get(
      endpoint.path,
      conditionalOperation(services, wantsHistory, {
        scope: endpoint.readScope,
        handler: async (ctx) => {
          const query = parseQuery(ctx.req, asOfQuery);
          const { item, belongs, show } = await endpoint.locate(ctx);
          const timeline = await documentTimeline(services.eventStore, endpoint.source.projection, item.stream, item.key);
          const at = query.revision !== undefined ? { revision: BigInt(query.revision) } : { asOf: new Date(query.as_of!) };
          const doc = documentAsOf(timeline, at);
          if (!doc || !belongs(doc)) throw apiErrors.notFound();
          const last = timeline.filter((e) => e.after === doc).pop();
          if (!show) throw apiErrors.notFound();
          return ok(await show(doc), last?.event.revision);
        },
      }),
    );
  }
  return router;
}
