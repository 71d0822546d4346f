import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { Request } from 'express';
import { z } from 'zod';
import { batchExportDecider, batchExportStream } from '../../domain/batch-export';
import { DESTINATION_CONFIGS, DESTINATION_TYPES, DestinationType, publicDestination } from '../../domain/batch-export/destinations';
import { parseExportQuery } from '../../domain/batch-export/hogql';
import { INTERVALS } from '../../domain/batch-export/intervals';
import { batchExportRunDecider, batchExportRunStream } from '../../domain/batch-export/run';
import type { Services } from '../container';
import type { BatchExportDoc, BatchExportLogEntryDoc, BatchExportRunDoc } from '../exports/documents';
import { earliestEventAt, headRevision } from '../exports/source';
import type { ProjectDoc } from '../identity/documents';
import type { Filter } from '../readstore/port';
import { organizationAccess } from './access';
import type { Context } from './endpoint';
import { created, empty, ok, resource } from './endpoint';
import { apiErrors } from './errors';
import { pageOf, paginated } from './pagination';
import { parseBody, parseQuery, parseWith, readJsonBody } from './validation';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LATEST_RUNS = 10;

/** ISO 8601 with or without an offset (without: UTC, as the reference's server time zone), stored in UTC. */
const dateTime = z.string().transform((value, ctx) => {
  const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value.trim())
    ? Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value.trim()) || value.trim().length === 10 ? value.trim() : `${value.trim()}Z`)
    : NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].' });
    return z.NEVER;
  }
  return new Date(ms).toISOString();
});

const destinationSchema = z.object({ type: z.enum(DESTINATION_TYPES), config: z.record(z.string(), z.unknown()).default({}) });
const fields = {
  name: z.string().trim().min(1).max(255),
  model: z.enum(['events', 'persons']).default('events'),
  destination: destinationSchema,
  interval: z.enum(INTERVALS),
  paused: z.boolean().default(false),
  last_paused_at: dateTime.nullish(),
  start_at: dateTime.nullish(),
  end_at: dateTime.nullish(),
  hogql_query: z.string().nullish(),
  team_id: z.number().int().optional(),
};
const createSchema = z.object(fields);
const updateSchema = z.object({
  ...fields,
  model: z.enum(['events', 'persons']),
  paused: z.boolean(),
  destination: z.object({ type: z.enum(DESTINATION_TYPES).optional(), config: z.record(z.string(), z.unknown()).optional() }),
}).partial();

/** A destination's config, checked against its type; errors name `destination__config__<field>`. */
function validDestination(type: DestinationType, config: Record<string, unknown>) {
  const parsed = parseWith(z.object({ destination: z.object({ config: DESTINATION_CONFIGS[type] }) }), { destination: { config } });
  return { type, config: parsed.destination.config as Record<string, unknown> };
}

function schemaOf(query: string | null | undefined) {
  if (query === undefined) return undefined;
  if (query === null || query.trim() === '') return { hogql_query: null, schema: null };
  return { hogql_query: query, schema: parseExportQuery(query) };
}

export function serializeRun(run: BatchExportRunDoc) {
  return {
    id: run.id,
    status: run.status,
    records_completed: run.records_completed,
    latest_error: run.latest_error,
    data_interval_start: run.data_interval_start,
    data_interval_end: run.data_interval_end,
    cursor: run.cursor,
    created_at: run.created_at,
    finished_at: run.finished_at,
    last_updated_at: run.last_updated_at,
    records_total_count: run.records_total_count,
    batch_export: run.batch_export_id,
  };
}

const NEWEST_FIRST: [string, 1 | -1][] = [['created_at', -1], ['data_interval_start', -1]];

export async function serializeExport(services: Services, doc: BatchExportDoc) {
  const runs = await services.readStore.find<BatchExportRunDoc>('batch_export_runs', { batch_export_id: doc.id }, { sort: NEWEST_FIRST, limit: LATEST_RUNS });
  return {
    id: doc.id,
    team_id: doc.team_id,
    name: doc.name,
    model: doc.model,
    destination: publicDestination(doc.destination),
    interval: doc.interval,
    paused: doc.paused,
    created_at: doc.created_at,
    last_updated_at: doc.last_updated_at,
    last_paused_at: doc.last_paused_at,
    start_at: doc.start_at,
    end_at: doc.end_at,
    latest_runs: runs.map(serializeRun),
    hogql_query: doc.hogql_query,
    schema: doc.schema,
  };
}

/** Python's fromisoformat, as the reference parses backfill bounds: a time without an offset is refused as naive. */
function backfillBound(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(text);
  const ms = match ? Date.parse(match[2] ? `${match[1]}T${match[2]}${match[3] ?? 'Z'}` : `${match[1]}T00:00:00Z`) : NaN;
  if (!match || Number.isNaN(ms)) throw apiErrors.validation(`Input ${String(value)} is not a valid ISO formatted datetime.`);
  if (match[2] && !match[3]) throw apiErrors.validation(`Input ${String(value)} is naive.`);
  return new Date(ms).toISOString();
}

export function batchExportsRouter(services: Services) {
  const router = Router();
  const base = '/api/organizations/:organization_id/batch_exports';

  const access = (ctx: Context) => organizationAccess(services, ctx.principal, String(ctx.req.params.organization_id));
  const exportOf = async (req: Request, organizationId: string) => {
    const id = String(req.params.id);
    if (!UUID.test(id)) throw apiErrors.notFound();
    const doc = await services.readStore.get<BatchExportDoc>('batch_exports', id.toLowerCase());
    if (!doc || doc.deleted || doc.organization_id !== organizationId) throw apiErrors.notFound();
    return doc;
  };
  const runOf = async (req: Request, doc: BatchExportDoc) => {
    const id = String(req.params.run_id);
    const run = UUID.test(id) ? await services.readStore.get<BatchExportRunDoc>('batch_export_runs', id.toLowerCase()) : null;
    if (!run || run.batch_export_id !== doc.id) throw apiErrors.notFound();
    return run;
  };
  const projectFor = async (organizationId: string, teamId: number | undefined) => {
    if (teamId !== undefined) {
      const project = await services.readStore.get<ProjectDoc>('projects', teamId);
      if (!project || project.organization_id !== organizationId) {
        throw apiErrors.validation(`Invalid pk "${teamId}" - object does not exist.`, 'team_id', 'does_not_exist');
      }
      return project.id;
    }
    const [oldest] = await services.readStore.find<ProjectDoc>('projects', { organization_id: organizationId }, { sort: [['id', 1]], limit: 1 });
    if (!oldest) throw apiErrors.validation('The organization has no project to export.', 'team_id');
    return oldest.id;
  };
  const exportCommand = (id: string, ctx: Context, command: { type: string; data: unknown }) =>
    services.commands.handle(batchExportDecider, batchExportStream(id), { ...command, metadata: ctx.metadata } as any, { expectedRevision: ctx.ifMatch });
  const reload = async (id: string) => (await services.readStore.get<BatchExportDoc>('batch_exports', id))!;

  resource(router, services, `${base}/`, {
    get: {
      scope: 'batch_export:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const page = pageOf(ctx.req);
        const filter = { organization_id: organization.id, deleted: false };
        const count = await services.readStore.count('batch_exports', filter);
        const docs = await services.readStore.find<BatchExportDoc>('batch_exports', filter, { sort: [['created_at', -1], ['id', -1]], skip: page.offset, limit: page.limit });
        const results = await Promise.all(docs.map((d) => serializeExport(services, d)));
        return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, count, results));
      },
    },
    post: {
      scope: 'batch_export:write',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const body = parseBody(ctx.req, createSchema);
        const destination = validDestination(body.destination.type, body.destination.config);
        const query = schemaOf(body.hogql_query) ?? { hogql_query: null, schema: null };
        const teamId = await projectFor(organization.id, body.team_id);
        const id = randomUUID();
        const { revision } = await exportCommand(id, ctx, {
          type: 'CreateBatchExport',
          data: {
            id,
            organizationId: organization.id,
            teamId,
            name: body.name,
            model: body.model,
            destination,
            interval: body.interval,
            paused: body.paused,
            start_at: body.start_at ?? null,
            end_at: body.end_at ?? null,
            ...query,
          },
        });
        return created(await serializeExport(services, await reload(id)), revision);
      },
    },
  });

  resource(router, services, `${base}/:id/`, {
    get: {
      scope: 'batch_export:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        return ok(await serializeExport(services, await exportOf(ctx.req, organization.id)));
      },
    },
    patch: {
      scope: 'batch_export:write',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const doc = await exportOf(ctx.req, organization.id);
        const body = parseBody(ctx.req, updateSchema);
        const changes: Record<string, unknown> = {};
        for (const key of ['name', 'model', 'interval', 'paused'] as const) if (body[key] !== undefined) changes[key] = body[key];
        for (const key of ['start_at', 'end_at'] as const) if (body[key] !== undefined) changes[key] = body[key];
        if (body.destination) {
          const type = body.destination.type ?? doc.destination.type;
          // Config is merged key by key (secrets included), unless the type changes: then it is a new config.
          const config = type === doc.destination.type ? { ...doc.destination.config, ...(body.destination.config ?? {}) } : (body.destination.config ?? {});
          changes.destination = validDestination(type, config);
        }
        Object.assign(changes, schemaOf(body.hogql_query) ?? {});
        if (body.team_id !== undefined) changes.teamId = await projectFor(organization.id, body.team_id);
        const { revision } = await exportCommand(doc.id, ctx, { type: 'UpdateBatchExport', data: { changes } });
        return ok(await serializeExport(services, await reload(doc.id)), revision);
      },
    },
    delete: {
      scope: 'batch_export:write',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const doc = await exportOf(ctx.req, organization.id);
        await exportCommand(doc.id, ctx, { type: 'DeleteBatchExport', data: {} });
        return empty(204);
      },
    },
  });

  const action = (name: string, run: (ctx: Context, doc: BatchExportDoc) => Promise<void>) =>
    resource(router, services, `${base}/:id/${name}/`, {
      post: {
        scope: 'batch_export:write',
        handler: async (ctx) => {
          const { organization } = await access(ctx);
          const doc = await exportOf(ctx.req, organization.id);
          await run(ctx, doc);
          return empty(200);
        },
      },
    });

  // pause takes no body (a body that comes along is ignored).
  action('pause', (ctx, doc) => exportCommand(doc.id, ctx, { type: 'PauseBatchExport', data: {} }).then(() => undefined));
  action('unpause', async (ctx, doc) => {
    const body = parseBody(ctx.req, z.object({ backfill: z.boolean().default(false) }));
    await exportCommand(doc.id, ctx, { type: 'UnpauseBatchExport', data: { backfill: body.backfill, backfillId: randomUUID() } });
  });
  action('backfill', async (ctx, doc) => {
    const body = readJsonBody(ctx.req) as Record<string, unknown>;
    const input = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const startAt = backfillBound(input.start_at);
    const endAt = backfillBound(input.end_at);
    const selection = { projectId: doc.team_id, includeEvents: doc.destination.config.include_events as string[] | null, excludeEvents: doc.destination.config.exclude_events as string[] | null };
    const events = doc.model === 'events';
    const hasData = !events || (await headRevision(services.eventStore, doc.team_id)) !== null;
    const earliest = events && hasData ? await earliestEventAt(services.eventStore, selection) : null;
    await exportCommand(doc.id, ctx, {
      type: 'BackfillBatchExport',
      data: { backfillId: randomUUID(), startAt, endAt, hasData: events ? earliest !== null : hasData, earliestEventAt: earliest },
    });
  });

  resource(router, services, `${base}/:id/logs/`, {
    get: {
      scope: 'batch_export:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        await exportOf(ctx.req, organization.id);
        // The interface gives this operation no body; runs/ and log_entries/ serve the data.
        return empty(200);
      },
    },
  });

  resource(router, services, `${base}/:id/runs/`, {
    get: {
      scope: 'batch_export:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const doc = await exportOf(ctx.req, organization.id);
        const q = parseQuery(ctx.req, z.object({ status: z.string().optional(), after: dateTime.optional(), before: dateTime.optional() }));
        const filter: Filter = { batch_export_id: doc.id };
        if (q.status) filter.status = { $in: q.status.split(',').map((s) => s.trim()).filter(Boolean) };
        if (q.after || q.before) filter.data_interval_start = { ...(q.after ? { $gte: q.after } : {}), ...(q.before ? { $lt: q.before } : {}) };
        const page = pageOf(ctx.req);
        const count = await services.readStore.count('batch_export_runs', filter);
        const runs = await services.readStore.find<BatchExportRunDoc>('batch_export_runs', filter, { sort: NEWEST_FIRST, skip: page.offset, limit: page.limit });
        return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, count, runs.map(serializeRun)));
      },
    },
  });
  resource(router, services, `${base}/:id/runs/:run_id/`, {
    get: {
      scope: 'batch_export:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        return ok(serializeRun(await runOf(ctx.req, await exportOf(ctx.req, organization.id))));
      },
    },
  });
  const runAction = (name: 'cancel' | 'retry', type: string, answer: (run: BatchExportRunDoc) => unknown) =>
    resource(router, services, `${base}/:id/runs/:run_id/${name}/`, {
      post: {
        scope: 'batch_export:write',
        handler: async (ctx) => {
          const { organization } = await access(ctx);
          const run = await runOf(ctx.req, await exportOf(ctx.req, organization.id));
          const { revision } = await services.commands.handle(batchExportRunDecider, batchExportRunStream(run.id), { type, data: {}, metadata: ctx.metadata } as any);
          return ok(answer((await services.readStore.get<BatchExportRunDoc>('batch_export_runs', run.id))!), revision);
        },
      },
    });
  runAction('cancel', 'CancelBatchExportRun', () => ({ cancelled: true }));
  runAction('retry', 'RetryBatchExportRun', serializeRun);

  resource(router, services, `${base}/:id/log_entries/`, {
    get: {
      scope: 'batch_export:read',
      handler: async (ctx) => {
        const { organization } = await access(ctx);
        const doc = await exportOf(ctx.req, organization.id);
        const q = parseQuery(
          ctx.req,
          z.object({ level: z.string().optional(), search: z.string().max(200).optional(), instance_id: z.string().optional(), after: dateTime.optional(), before: dateTime.optional() }),
        );
        const filter: Filter = { batch_export_id: doc.id };
        if (q.level) filter.level = { $in: q.level.split(',').map((l) => l.trim().toUpperCase()).filter(Boolean) };
        if (q.instance_id) filter.instance_id = q.instance_id;
        if (q.after || q.before) filter.timestamp = { ...(q.after ? { $gt: q.after } : {}), ...(q.before ? { $lt: q.before } : {}) };
        const sort: [string, 1 | -1][] = [['timestamp', -1], ['_position', -1]];
        const page = pageOf(ctx.req);
        let entries: BatchExportLogEntryDoc[];
        let count: number;
        if (q.search) {
          // The read store has no text search: the export's entries are filtered here (they are few per export).
          const needle = q.search.toLowerCase();
          const all = (await services.readStore.find<BatchExportLogEntryDoc>('batch_export_log_entries', filter, { sort })).filter((e) => e.message.toLowerCase().includes(needle));
          count = all.length;
          entries = all.slice(page.offset, page.offset + page.limit);
        } else {
          count = await services.readStore.count('batch_export_log_entries', filter);
          entries = await services.readStore.find<BatchExportLogEntryDoc>('batch_export_log_entries', filter, { sort, skip: page.offset, limit: page.limit });
        }
        const results = entries.map((e) => ({ log_source_id: e.log_source_id, instance_id: e.instance_id, timestamp: e.timestamp, level: e.level, message: e.message }));
        return ok(paginated(ctx.req, services.config.PUBLIC_URL, page, count, results));
      },
    },
  });
  return router;
}

