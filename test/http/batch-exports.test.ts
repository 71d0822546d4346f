import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';
import { ingest } from '../exports/ingest';
import { BatchExportWorker } from '../../src/exports';

const s3Destination = {
  type: 'S3',
  config: { bucket_name: 'exports', region: 'eu-west-1', prefix: 'posthog/', aws_access_key_id: 'AKIAEXAMPLE', aws_secret_access_key: 'very-secret' },
};

describe('batch exports API', () => {
  let c: TestChronicle;
  let url: string;
  const create = (body: Record<string, unknown>, key?: string) =>
    c.api('post', url, key).send({ name: 'Export', destination: s3Destination, interval: 'hour', ...body });
  const noop = async (body: Record<string, unknown> = {}) =>
    (await create({ destination: { type: 'NoOp', config: {} }, ...body }).expect(201)).body;

  beforeAll(async () => {
    c = await startTestChronicle({ env: { BATCH_EXPORT_WORKER: 'off' } });
    url = `/api/organizations/${c.organizationId}/batch_exports/`;
  });
  afterAll(() => c.stop());

  describe('create, list, retrieve', () => {
    it('creates an export in the oldest project with its secrets kept back', async () => {
      const res = await create({}).expect(201);
      expect(res.body).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        team_id: c.projectId,
        name: 'Export',
        model: 'events',
        interval: 'hour',
        paused: false,
        last_paused_at: null,
        start_at: null,
        end_at: null,
        latest_runs: [],
        hogql_query: null,
        schema: null,
      });
      expect(res.body.destination).toEqual({
        type: 'S3',
        config: { bucket_name: 'exports', region: 'eu-west-1', prefix: 'posthog/', file_format: 'JSONLines' },
      });
      expect(JSON.stringify(res.body)).not.toContain('very-secret');
      expect(res.body.created_at).toMatch(/Z$/);
      const got = await c.api('get', `${url}${res.body.id}/`).expect(200);
      expect(got.body).toEqual(res.body);
    });

    it('lists exports newest first, paginated', async () => {
      const first = await noop({ name: 'first' });
      const second = await noop({ name: 'second' });
      const list = await c.api('get', `${url}?limit=2`).expect(200);
      expect(list.body.results.map((e: any) => e.id)).toEqual([second.id, first.id]);
      expect(list.body.count).toBeGreaterThanOrEqual(3);
      expect(list.body.next).toContain('offset=2');
      expect(list.body.previous).toBeNull();
    });

    it('accepts every destination type with its own config and every interval', async () => {
      const configs: Record<string, Record<string, unknown>> = {
        Postgres: { user: 'u', password: 'p', host: 'db.example.com', database: 'analytics' },
        Redshift: { user: 'u', password: 'p', host: 'rs.example.com', database: 'analytics' },
        HTTP: { url: 'https://example.com/ingest', token: 'tok' },
        Snowflake: { account: 'acc', user: 'u', password: 'p', database: 'd', warehouse: 'w', schema: 's' },
        BigQuery: { project_id: 'p', dataset_id: 'd', private_key: 'k', private_key_id: 'kid', client_email: 'e@x.iam', token_uri: 'https://oauth2.googleapis.com/token' },
        Databricks: { http_path: '/sql/1', catalog: 'main', schema: 'default', table_name: 'events' },
        NoOp: {},
      };
      const secret: Record<string, string[]> = {
        Postgres: ['user', 'password'],
        Redshift: ['user', 'password'],
        HTTP: ['token'],
        Snowflake: ['password'],
        BigQuery: ['private_key', 'private_key_id', 'client_email', 'token_uri'],
        Databricks: [],
        NoOp: [],
      };
      const intervals = ['hour', 'day', 'week', 'every 5 minutes'];
      let i = 0;
      for (const [type, config] of Object.entries(configs)) {
        const res = await create({ destination: { type, config }, interval: intervals[i++ % 4] }).expect(201);
        expect(res.body.destination.type).toBe(type);
        for (const field of secret[type]) expect(res.body.destination.config).not.toHaveProperty(field);
      }
      const pg = await create({ destination: { type: 'Postgres', config: configs.Postgres } }).expect(201);
      expect(pg.body.destination.config).toMatchObject({ port: 5432, schema: 'public', table_name: 'events', host: 'db.example.com' });
      const rs = await create({ destination: { type: 'Redshift', config: configs.Redshift } }).expect(201);
      expect(rs.body.destination.config.port).toBe(5439);
    });

    it('takes a project of the organization as team_id, and refuses another one', async () => {
      const other = await c.api('post', '/api/organizations/').send({ name: 'Elsewhere' }).expect(201);
      const foreignProject = other.body.teams[0]?.id;
      expect(foreignProject).toBeDefined();
      const res = await create({ team_id: foreignProject }).expect(400);
      expect(res.body).toMatchObject({ type: 'validation_error', attr: 'team_id' });
      await create({ team_id: c.projectId }).expect(201);
    });

    it('validates the body, naming the field', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: undefined }, 'name', 'required'],
        [{ interval: undefined }, 'interval', 'required'],
        [{ destination: undefined }, 'destination', 'required'],
        [{ interval: 'minute' }, 'interval', 'invalid_choice'],
        [{ model: 'sessions' }, 'model', 'invalid_choice'],
        [{ destination: { type: 'FTP', config: {} } }, 'destination__type', 'invalid_choice'],
        [{ destination: { type: 'S3', config: { region: 'x', aws_access_key_id: 'a', aws_secret_access_key: 'b' } } }, 'destination__config__bucket_name', 'required'],
        [{ destination: { type: 'HTTP', config: { url: 'not a url', token: 't' } } }, 'destination__config__url', 'invalid_input'],
        [{ destination: { type: 'Snowflake', config: { account: 'a', user: 'u', database: 'd', warehouse: 'w', schema: 's' } } }, 'destination__config__password', 'invalid_input'],
        [{ destination: { type: 'Postgres', config: { user: 'u', password: 'p', host: 'h', database: 'd', port: 'x' } } }, 'destination__config__port', 'invalid_input'],
        [{ paused: 'yes' }, 'paused', 'invalid_input'],
        [{ start_at: 'yesterday' }, 'start_at', 'invalid_input'],
      ];
      for (const [patch, attr, code] of cases) {
        const res = await create(patch).expect(400);
        expect(res.body).toMatchObject({ type: 'validation_error', attr, code });
      }
      const order = await create({ start_at: '2026-02-01T00:00:00Z', end_at: '2026-01-01T00:00:00Z' }).expect(400);
      expect(order.body.attr).toBe('start_at');
    });

    it('stores hogql_query as given, with its derived schema', async () => {
      const query = 'SELECT event, properties.$browser AS browser, toString(uuid) AS id FROM events WHERE event = \'$pageview\'';
      const res = await create({ hogql_query: query }).expect(201);
      expect(res.body.hogql_query).toBe(query);
      expect(res.body.schema).toEqual({
        fields: [
          { expression: 'event', alias: 'event' },
          { expression: 'properties.$browser', alias: 'browser' },
          { expression: 'toString(uuid)', alias: 'id' },
        ],
        values: {},
        hogql_query: query,
      });
      const refused: [string, string][] = [
        ['SELECT event FROM events UNION ALL SELECT event FROM events', 'UNIONs are not supported'],
        ['SELECT e.event FROM events e JOIN persons p ON p.id = e.person_id', 'JOINs are not supported'],
        ['SELECT id FROM persons', 'Query must SELECT FROM events'],
        ['SELECT 1', 'Query must SELECT FROM events'],
        ['SELECT event FROM events, persons', 'Query must only SELECT FROM events'],
        ['SELECT event FROM (SELECT event FROM events)', 'Query must only SELECT FROM events'],
        ['DROP TABLE events', 'Failed to parse query'],
        ['SELECT upper(event) FROM events', 'Batch export queries do not support the function upper().'],
        ['SELECT elements_chain FROM events', 'Batch export queries do not support the field elements_chain.'],
        ["SELECT event FROM events WHERE event = 'a' OR event = 'b'", 'Batch export queries do not support OR in WHERE.'],
        ['SELECT event, count() FROM events GROUP BY event', 'Batch export queries do not support the function count().'],
      ];
      for (const [q, detail] of refused) {
        const bad = await create({ hogql_query: q }).expect(400);
        expect(bad.body).toMatchObject({ type: 'validation_error', detail, attr: 'hogql_query' });
      }
    });
  });

  describe('update and delete', () => {
    it('merges destination.config key by key, keeping secrets', async () => {
      const made = (await create({}).expect(201)).body;
      const res = await c.api('patch', `${url}${made.id}/`).send({ destination: { config: { prefix: 'other/', compression: 'gzip' } }, name: 'Renamed', interval: 'day' }).expect(200);
      expect(res.body).toMatchObject({ name: 'Renamed', interval: 'day' });
      expect(res.body.destination.config).toMatchObject({ bucket_name: 'exports', region: 'eu-west-1', prefix: 'other/', compression: 'gzip' });
      expect(res.headers.etag).toBeDefined();
      const stored = await c.services.readStore.get('batch_exports', made.id);
      expect(stored!.destination.config.aws_secret_access_key).toBe('very-secret');
      expect(Date.parse(res.body.last_updated_at)).toBeGreaterThanOrEqual(Date.parse(made.last_updated_at));
      const bad = await c.api('patch', `${url}${made.id}/`).send({ destination: { config: { compression: 'zip' } } }).expect(400);
      expect(bad.body).toMatchObject({ attr: 'destination__config__compression', code: 'invalid_choice' });
      const badQuery = await c.api('patch', `${url}${made.id}/`).send({ hogql_query: 'SELECT 1 FROM persons' }).expect(400);
      expect(badQuery.body.detail).toBe('Query must SELECT FROM events');
      // What the worker could not evaluate is refused, never stored and ignored.
      const unsupported = await c.api('patch', `${url}${made.id}/`).send({ hogql_query: 'SELECT event FROM events ORDER BY timestamp' }).expect(400);
      expect(unsupported.body).toMatchObject({ type: 'validation_error', attr: 'hogql_query', detail: 'Batch export queries do not support ORDER BY.' });
      const withPersons = await c.api('patch', `${url}${made.id}/`).send({ model: 'persons', hogql_query: 'SELECT event FROM events' }).expect(400);
      expect(withPersons.body).toMatchObject({ attr: 'hogql_query', detail: 'A hogql_query can only be used with the events model, not persons.' });
      expect((await c.api('get', `${url}${made.id}/`).expect(200)).body).toMatchObject({ model: 'events', hogql_query: null });
    });

    it('deletes with 204: the export is gone and its schedule stopped', async () => {
      const made = await noop({ name: 'to delete' });
      const res = await c.api('delete', `${url}${made.id}/`).expect(204);
      expect(res.text).toBe('');
      await c.api('get', `${url}${made.id}/`).expect(404);
      await c.api('patch', `${url}${made.id}/`).send({ name: 'x' }).expect(404);
      const list = await c.api('get', `${url}?limit=1000`).expect(200);
      expect(list.body.results.map((e: any) => e.id)).not.toContain(made.id);
      const scheduled = await c.services.readStore.find('batch_exports', { deleted: false, paused: false });
      expect(scheduled.map((d) => d.id)).not.toContain(made.id);
    });
  });

  describe('pause, unpause, backfill', () => {
    it('pauses and unpauses with 200 and an empty body', async () => {
      const made = await noop();
      const paused = await c.api('post', `${url}${made.id}/pause/`).expect(200);
      expect(paused.text).toBe('');
      const got = await c.api('get', `${url}${made.id}/`).expect(200);
      expect(got.body.paused).toBe(true);
      expect(got.body.last_paused_at).toMatch(/Z$/);
      await c.api('post', `${url}${made.id}/pause/`).expect(200);
      const again = await c.api('get', `${url}${made.id}/`).expect(200);
      expect(again.body.last_paused_at).toBe(got.body.last_paused_at);
      const unpaused = await c.api('post', `${url}${made.id}/unpause/`).expect(200);
      expect(unpaused.text).toBe('');
      expect((await c.api('get', `${url}${made.id}/`).expect(200)).body.paused).toBe(false);
    });

    it('unpause with backfill:true fills the paused gap', async () => {
      const made = await noop();
      await c.api('post', `${url}${made.id}/pause/`).expect(200);
      await c.api('post', `${url}${made.id}/unpause/`).send({ backfill: true }).expect(200);
      const doc = await c.services.readStore.get('batch_exports', made.id);
      expect(doc!.backfills).toEqual([expect.objectContaining({ start_at: expect.any(String), end_at: expect.any(String) })]);
      const gap = doc!.backfills[0];
      const got = (await c.api('get', `${url}${made.id}/`).expect(200)).body;
      expect(gap.start_at).toBe(got.last_paused_at);
    });

    it('validates backfill bounds with the reference texts', async () => {
      const s3 = (await create({}).expect(201)).body;
      const http = (await create({ destination: { type: 'HTTP', config: { url: 'http://127.0.0.1:1/x', token: 't' } } }).expect(201)).body;
      const backfill = (id: string, body: unknown) => c.api('post', `${url}${id}/backfill/`).send(body as object);
      const nodata = await backfill(s3.id, { start_at: '2026-01-01T00:00:00Z', end_at: '2026-01-02T00:00:00Z' }).expect(400);
      expect(nodata.body.detail).toBe('There is no data to backfill for this model.');
      await ingest(c.services, c.projectId, [{ timestamp: '2025-06-01T10:30:00.000Z' }]);
      const cases: [unknown, string][] = [
        [{ start_at: 'soon', end_at: '2025-06-02T00:00:00Z' }, 'Input soon is not a valid ISO formatted datetime.'],
        [{ start_at: '2025-06-01T00:00:00', end_at: '2025-06-02T00:00:00Z' }, 'Input 2025-06-01T00:00:00 is naive.'],
        [{ start_at: '2025-06-03T00:00:00Z', end_at: '2025-06-02T00:00:00+00:00' }, "The initial backfill datetime 'start_at' happens after 'end_at'"],
        [{ start_at: '2025-06-01T00:00:00Z' }, 'Backfilling a BatchExport with no end date is not allowed'],
      ];
      for (const [body, detail] of cases) {
        const res = await backfill(s3.id, body).expect(400);
        expect(res.body).toMatchObject({ type: 'validation_error', detail });
      }
      const future = new Date(Date.now() + 3 * 3600_000).toISOString();
      const far = await backfill(s3.id, { start_at: '2025-06-01T00:00:00Z', end_at: future }).expect(400);
      expect(far.body.detail).toMatch(/is too far into the future\. Cannot backfill beyond 1 batch period into the future\.$/);
      const early = await backfill(s3.id, { start_at: '2025-01-01T00:00:00Z', end_at: '2025-02-01T00:00:00Z' }).expect(400);
      expect(early.body.detail).toBe('The provided backfill date range contains no data. The earliest possible backfill start date is 2025-06-01 10:30:00');
      const okay = await backfill(s3.id, { start_at: '2025-06-01', end_at: '2025-06-01T14:00:00+02:00' }).expect(200);
      expect(okay.text).toBe('');
      // The start is moved up to the first event; HTTP may leave the end open.
      const doc = await c.services.readStore.get('batch_exports', s3.id);
      expect(doc!.backfills).toEqual([expect.objectContaining({ start_at: '2025-06-01T10:30:00.000Z', end_at: '2025-06-01T12:00:00.000Z' })]);
      await backfill(http.id, { start_at: '2025-06-01T00:00:00Z' }).expect(200);
      // Nothing listens at these destinations: keep the worker of the next tests away from them.
      for (const id of [s3.id, http.id]) await c.api('delete', `${url}${id}/`).expect(204);
    });
  });

  describe('runs and log entries', () => {
    let exportId: string;
    let worker: BatchExportWorker;
    beforeAll(async () => {
      await ingest(c.services, c.projectId, [
        { timestamp: '2025-07-01T00:10:00.000Z' },
        { timestamp: '2025-07-01T00:20:00.000Z', event: 'signup' },
        { timestamp: '2025-07-01T01:10:00.000Z' },
        { timestamp: '2025-07-01T02:59:59.999Z' },
      ]);
      exportId = (await noop({ destination: { type: 'NoOp', config: { exclude_events: ['signup'] } } })).id;
      worker = new BatchExportWorker(c.services, { tickMs: 1000, retryBackoffMs: 1000, maxAttempts: 3 });
      await c.api('post', `${url}${exportId}/backfill/`).send({ start_at: '2025-07-01T00:00:00Z', end_at: '2025-07-01T03:00:00Z' }).expect(200);
      await worker.tick();
    });

    it('creates one run per interval and delivers them, newest first in latest_runs and runs/', async () => {
      const got = await c.api('get', `${url}${exportId}/`).expect(200);
      expect(got.body.latest_runs).toHaveLength(3);
      expect(got.body.latest_runs.map((r: any) => r.data_interval_start)).toEqual([
        '2025-07-01T02:00:00.000Z',
        '2025-07-01T01:00:00.000Z',
        '2025-07-01T00:00:00.000Z',
      ]);
      for (const run of got.body.latest_runs) {
        expect(run).toMatchObject({ status: 'Completed', batch_export: exportId, latest_error: null, finished_at: expect.any(String) });
      }
      expect(got.body.latest_runs.map((r: any) => r.records_completed)).toEqual([1, 1, 1]);
      const runs = await c.api('get', `${url}${exportId}/runs/`).expect(200);
      expect(runs.body).toMatchObject({ count: 3, next: null, previous: null });
      expect(runs.body.results).toEqual(got.body.latest_runs);
      const filtered = await c.api('get', `${url}${exportId}/runs/?status=Failed`).expect(200);
      expect(filtered.body.count).toBe(0);
      // An empty filter is no filter; a repeated one is refused rather than silently ignored.
      expect((await c.api('get', `${url}${exportId}/runs/?status=&after=`).expect(200)).body.count).toBe(3);
      const twice = await c.api('get', `${url}${exportId}/runs/?status=Failed&status=Completed`).expect(400);
      expect(twice.body).toMatchObject({ type: 'validation_error', attr: 'status' });
      // A second backfill over the same stretch adds no run.
      await c.api('post', `${url}${exportId}/backfill/`).send({ start_at: '2025-07-01T00:00:00Z', end_at: '2025-07-01T03:00:00Z' }).expect(200);
      await worker.tick();
      expect((await c.api('get', `${url}${exportId}/runs/`).expect(200)).body.count).toBe(3);
    });

    it('shows at most the 10 newest runs in latest_runs', async () => {
      const many = await noop();
      await c.api('post', `${url}${many.id}/backfill/`).send({ start_at: '2025-07-01T00:00:00Z', end_at: '2025-07-01T12:00:00Z' }).expect(200);
      await worker.tick();
      const got = await c.api('get', `${url}${many.id}/`).expect(200);
      expect(got.body.latest_runs).toHaveLength(10);
      expect(got.body.latest_runs[0].data_interval_start).toBe('2025-07-01T11:00:00.000Z');
      expect((await c.api('get', `${url}${many.id}/runs/?limit=5`).expect(200)).body).toMatchObject({ count: 12, next: expect.stringContaining('offset=5') });
    });

    it('serves log entries newest first, filtered by level, run and text', async () => {
      const all = await c.api('get', `${url}${exportId}/log_entries/`).expect(200);
      expect(all.body.count).toBeGreaterThanOrEqual(9);
      const times = all.body.results.map((e: any) => e.timestamp);
      expect([...times].sort().reverse()).toEqual(times);
      expect(all.body.results[0]).toEqual({ log_source_id: exportId, instance_id: expect.any(String), timestamp: expect.any(String), level: 'INFO', message: expect.any(String) });
      const completed = await c.api('get', `${url}${exportId}/log_entries/?search=COMPLETED`).expect(200);
      expect(completed.body.count).toBe(3);
      const run = all.body.results.find((e: any) => /Run completed/.test(e.message)).instance_id;
      const forRun = await c.api('get', `${url}${exportId}/log_entries/?instance_id=${run}`).expect(200);
      expect(forRun.body.results.every((e: any) => e.instance_id === run)).toBe(true);
      expect((await c.api('get', `${url}${exportId}/log_entries/?level=error`).expect(200)).body.count).toBe(0);
      const logs = await c.api('get', `${url}${exportId}/logs/`).expect(200);
      expect(logs.text).toBe('');
    });

    it('cancels only Starting or Running runs, and retries a finished one', async () => {
      const runs = (await c.api('get', `${url}${exportId}/runs/`).expect(200)).body.results;
      const done = runs[0];
      const refused = await c.api('post', `${url}${exportId}/runs/${done.id}/cancel/`).expect(400);
      expect(refused.body).toMatchObject({ type: 'validation_error', detail: "Cannot cancel a run that is in 'Completed' status" });
      const retried = await c.api('post', `${url}${exportId}/runs/${done.id}/retry/`).expect(200);
      expect(retried.body).toMatchObject({ id: done.id, status: 'Starting', records_completed: null });
      const cancelled = await c.api('post', `${url}${exportId}/runs/${done.id}/cancel/`).expect(200);
      expect(cancelled.body).toEqual({ cancelled: true });
      const after = await c.api('get', `${url}${exportId}/runs/${done.id}/`).expect(200);
      expect(after.body).toMatchObject({ status: 'Cancelled', finished_at: expect.any(String) });
      await worker.tick();
      expect((await c.api('get', `${url}${exportId}/runs/${done.id}/`).expect(200)).body.status).toBe('Cancelled');
      await c.api('post', `${url}${exportId}/runs/${done.id}/retry/`).expect(200);
      await worker.tick();
      expect((await c.api('get', `${url}${exportId}/runs/${done.id}/`).expect(200)).body).toMatchObject({ status: 'Completed', records_completed: 1 });
      await c.api('post', `${url}${exportId}/runs/00000000-0000-0000-0000-000000000000/cancel/`).expect(404);
    });

    it('fails runs to engines this installation cannot reach, with a clear error', async () => {
      const snow = (await create({ destination: { type: 'Snowflake', config: { account: 'a', user: 'u', password: 'p', database: 'd', warehouse: 'w', schema: 's' } } }).expect(201)).body;
      await c.api('post', `${url}${snow.id}/backfill/`).send({ start_at: '2025-07-01T00:00:00Z', end_at: '2025-07-01T01:00:00Z' }).expect(200);
      await worker.tick();
      const [run] = (await c.api('get', `${url}${snow.id}/runs/`).expect(200)).body.results;
      expect(run).toMatchObject({ status: 'Failed', latest_error: expect.stringContaining('Snowflake destination cannot be reached from this installation') });
      const errors = await c.api('get', `${url}${snow.id}/log_entries/?level=ERROR,warning`).expect(200);
      expect(errors.body.count).toBe(1);
    });

    it('starts no run of a paused export', async () => {
      const made = await noop();
      await c.api('post', `${url}${made.id}/backfill/`).send({ start_at: '2025-07-01T00:00:00Z', end_at: '2025-07-01T01:00:00Z' }).expect(200);
      await c.api('post', `${url}${made.id}/pause/`).expect(200);
      await worker.tick();
      expect((await c.api('get', `${url}${made.id}/runs/`).expect(200)).body.count).toBe(0);
      await c.api('post', `${url}${made.id}/unpause/`).expect(200);
      await worker.tick();
      expect((await c.api('get', `${url}${made.id}/runs/`).expect(200)).body.results).toEqual([expect.objectContaining({ status: 'Completed' })]);
    });
  });

  describe('access', () => {
    it('needs batch_export scopes: read for reads, write for writes and actions', async () => {
      const made = await noop();
      const reader = await addUser(c, { scopes: ['batch_export:read'], organizationId: c.organizationId });
      await c.api('get', url, reader.key).expect(200);
      await c.api('get', `${url}${made.id}/`, reader.key).expect(200);
      await c.api('get', `${url}${made.id}/logs/`, reader.key).expect(200);
      await c.api('get', `${url}${made.id}/runs/`, reader.key).expect(200);
      await c.api('get', `${url}${made.id}/log_entries/`, reader.key).expect(200);
      const refused = await create({}, reader.key).expect(403);
      expect(refused.body.detail).toBe("API key missing required scope 'batch_export:write'");
      for (const action of ['pause', 'unpause', 'backfill']) await c.api('post', `${url}${made.id}/${action}/`, reader.key).expect(403);
      await c.api('patch', `${url}${made.id}/`, reader.key).send({ name: 'x' }).expect(403);
      await c.api('delete', `${url}${made.id}/`, reader.key).expect(403);
      const other = await addUser(c, { scopes: ['dashboard:read'], organizationId: c.organizationId });
      expect((await c.api('get', url, other.key).expect(403)).body.detail).toBe("API key missing required scope 'batch_export:read'");
    });

    it('refuses non-members with 403 and hides other organizations\' exports with 404', async () => {
      const made = await noop();
      const stranger = await addUser(c, { scopes: ['*'] });
      await c.api('get', url, stranger.key).expect(403);
      const org = await c.api('post', '/api/organizations/').send({ name: 'Second' }).expect(201);
      await c.api('get', `/api/organizations/${org.body.id}/batch_exports/${made.id}/`).expect(404);
      await c.api('get', `${url}not-a-uuid/`).expect(404);
      await c.api('put', `${url}${made.id}/`).expect(405);
    });
  });
});
