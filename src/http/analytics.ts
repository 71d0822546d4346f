import { Request, Router } from 'express';
import { z } from 'zod';
import type { Services } from '../container';
import { personMembers, rootOf, serializePerson } from '../ingestion/persons';
import { PropertyState, visibleProperties } from '../../domain/ingestion/property-updates';
import type { Filter } from '../readstore/port';
import { projectAccess } from './access';
import { ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { parseQuery } from './validation';

/**
 * The read side of ingestion: events, persons, groups, event definitions and usage of one project. The read
 * models follow the log asynchronously, so an event shows here within moments of its acknowledgement.
 */
const isoTime = (field: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const ms = Date.parse(value);
      if (!Number.isFinite(ms)) {
        ctx.addIssue({ code: 'custom', message: 'Datetime has wrong format. Use ISO 8601.', path: [] });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    })
    .describe(field);

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.')
  .refine((v) => Number.isFinite(Date.parse(`${v}T00:00:00Z`)), 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.')
  .optional();

const eventsQuery = z.object({
  event: z.string().optional(),
  distinct_id: z.string().optional(),
  after: isoTime('after'),
  before: isoTime('before'),
});
const personsQuery = z.object({ distinct_id: z.string().optional() });
const groupsQuery = z.object({ group_type: z.string().optional(), group_key: z.string().optional() });
const definitionsQuery = z.object({ search: z.string().optional() });
const usageQuery = z.object({ date_from: day, date_to: day });

function list(req: Request, services: Services, count: number, results: unknown[]) {
  return ok(paginated(req, services.config.PUBLIC_URL, pageOf(req), count, results));
}

export function analyticsRouter(services: Services) {
  const router = Router();
  const store = services.readStore;

  resource(router, services, '/api/projects/:project_id/events/', {
    get: {
      scope: 'query:read',
      handler: async ({ req, principal }) => {
        const { project } = await projectAccess(services, principal, String(req.params.project_id));
        const q = parseQuery(req, eventsQuery);
        const filter: Filter = { project_id: project.id };
        if (q.event !== undefined) filter.event = q.event;
        if (q.distinct_id !== undefined) filter.distinct_id = q.distinct_id;
        if (q.after || q.before) filter.timestamp = { ...(q.after && { $gt: q.after }), ...(q.before && { $lt: q.before }) };
        const page = pageOf(req);
        const [count, docs] = await Promise.all([
          store.count('events', filter),
          store.find('events', filter, { sort: [['timestamp', -1], ['uuid', -1]], skip: page.offset, limit: page.limit }),
        ]);
        const results = docs.map((d) => ({ id: d.uuid, uuid: d.uuid, event: d.event, distinct_id: d.distinct_id, properties: d.properties, timestamp: d.timestamp }));
        return list(req, services, count, results);
      },
    },
  });

  resource(router, services, '/api/projects/:project_id/persons/', {
    get: {
      scope: 'person:read',
      handler: async ({ req, principal }) => {
        const { project } = await projectAccess(services, principal, String(req.params.project_id));
        const q = parseQuery(req, personsQuery);
        if (q.distinct_id !== undefined) {
          const root = await rootOf(services, project.id, q.distinct_id);
          const results = root ? [serializePerson(project.id, root, await personMembers(services, project.id, root))] : [];
          return list(req, services, results.length, results);
        }
        const page = pageOf(req);
        const filter: Filter = { project_id: project.id, merged_into: null };
        const [count, roots] = await Promise.all([
          store.count('persons', filter),
          store.find('persons', filter, { sort: [['created_at', -1], ['distinct_id', 1]], skip: page.offset, limit: page.limit }),
        ]);
        const results = await Promise.all(roots.map(async (root) => serializePerson(project.id, root, await personMembers(services, project.id, root))));
        return list(req, services, count, results);
      },
    },
  });

  resource(router, services, '/api/projects/:project_id/groups/', {
    get: {
      scope: 'group:read',
      handler: async ({ req, principal }) => {
        const { project } = await projectAccess(services, principal, String(req.params.project_id));
        const q = parseQuery(req, groupsQuery);
        const filter: Filter = { project_id: project.id };
        if (q.group_type !== undefined) filter.group_type = q.group_type;
        if (q.group_key !== undefined) filter.group_key = q.group_key;
        const page = pageOf(req);
        const [count, docs] = await Promise.all([
          store.count('groups', filter),
          store.find('groups', filter, { sort: [['created_at', -1], ['group_key', 1]], skip: page.offset, limit: page.limit }),
        ]);
        const results = docs.map((d) => ({
          group_type: d.group_type,
          group_key: d.group_key,
          group_properties: visibleProperties(d.props as PropertyState),
          created_at: d.created_at,
        }));
        return list(req, services, count, results);
      },
    },
  });

  resource(router, services, '/api/projects/:project_id/event_definitions/', {
    get: {
      scope: 'event_definition:read',
      handler: async ({ req, principal }) => {
        const { project } = await projectAccess(services, principal, String(req.params.project_id));
        const q = parseQuery(req, definitionsQuery);
        const page = pageOf(req);
        let docs = await store.find('event_definitions', { project_id: project.id }, { sort: [['name', 1]] });
        // The read store has no substring operator; a project has few event names, so this filters in memory.
        if (q.search) docs = docs.filter((d) => String(d.name).toLowerCase().includes(q.search!.toLowerCase()));
        const results = docs.slice(page.offset, page.offset + page.limit).map((d) => ({
          id: d.id,
          name: d.name,
          volume: d.volume,
          first_seen_at: d.first_seen_at,
          last_seen_at: d.last_seen_at,
          created_at: d.created_at,
        }));
        return list(req, services, docs.length, results);
      },
    },
  });

  resource(router, services, '/api/projects/:project_id/usage/', {
    get: {
      scope: 'organization:read',
      handler: async ({ req, principal }) => {
        const { project } = await projectAccess(services, principal, String(req.params.project_id));
        const q = parseQuery(req, usageQuery);
        const filter: Filter = { project_id: project.id };
        if (q.date_from || q.date_to) filter.date = { ...(q.date_from && { $gte: q.date_from }), ...(q.date_to && { $lte: q.date_to }) };
        const docs = await store.find('ingestion_usage', filter, { sort: [['date', 1]] });
        return ok({ results: docs.map((d) => ({ date: d.date, billable_events: d.billable_events, historical_events: d.historical_events })) });
      },
    },
  });

  return router;
}
