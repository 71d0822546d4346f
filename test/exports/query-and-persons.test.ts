import request from 'supertest';
import { BatchExportWorker, WorkerOptions } from '../../src/exports/worker';
import { ingestionStream, IngestedEventData } from '../../domain/ingestion/ingested-event';
import { PROJECT_KEY, startTestChronicle, TestChronicle } from '../support/chronicle';
import { startReceiver } from '../support/http-receiver';
import { startPostgres, TestPostgres } from '../support/postgres';

const DAY = '2025-09-01';
const H0 = `${DAY}T00:00:00.000Z`;
const H1 = `${DAY}T01:00:00.000Z`;
const HOUR = 3600_000;
const DAY_MS = 24 * HOUR;

describe('batch exports with a hogql_query, and of the persons model', () => {
  let c: TestChronicle;
  let pg: TestPostgres;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let url: string;
  let ingested: IngestedEventData[];
  /** When the persons were sent: every run of the persons exports covers the hours from here to now. */
  let sentAtMs: number;

  const options: WorkerOptions = { tickMs: 1000, retryBackoffMs: 60_000, maxAttempts: 5 };
  const create = async (body: Record<string, unknown>) => (await c.api('post', url).send({ name: 'e2e', interval: 'hour', ...body }).expect(201)).body.id as string;
  const runsOf = async (id: string) => (await c.api('get', `${url}${id}/runs/`).expect(200)).body.results;
  const pgConfig = (table: string) => ({ user: pg.user, password: pg.password, host: pg.host, port: pg.port, database: pg.database, table_name: table });
  const send = (batch: unknown[]) => request(c.app).post('/batch/').send({ api_key: PROJECT_KEY, batch }).expect(200);

  beforeAll(async () => {
    [c, pg, receiver] = await Promise.all([startTestChronicle({ env: { BATCH_EXPORT_WORKER: 'off' } }), startPostgres(), startReceiver()]);
    url = `/api/organizations/${c.organizationId}/batch_exports/`;
    const start = Date.parse(H0);
    // 200 events over two hours: three event names, two browsers, plans free / pro / none, a nested object.
    await send(
      Array.from({ length: 200 }, (_, i) => ({
        event: ['purchase', '$pageview', '$autocapture'][i % 3],
        distinct_id: `user-${i % 5}`,
        properties: { $browser: i % 2 ? 'Firefox' : 'Chrome', ...(i % 4 ? { plan: i % 4 === 1 ? 'free' : 'pro' } : {}), count: i, nested: { n: i, tags: ['a', i] } },
        timestamp: new Date(start + Math.floor((i * 2 * HOUR) / 200)).toISOString(),
      })),
    );
    sentAtMs = Date.now();
    // Persons: Ann sets and then changes her plan; an anonymous id, with a $set_once of its own, is identified as Ann; Bob sets his name.
    await send([
      { event: '$pageview', distinct_id: 'anon-1', properties: { $set_once: { referrer: 'ad' } }, timestamp: '2025-01-01T00:00:00.000Z' },
      { event: '$set', distinct_id: 'ann', properties: { $set: { name: 'Ann', plan: 'free' } }, timestamp: '2025-01-02T00:00:00.000Z' },
      { event: '$set', distinct_id: 'ann', properties: { $set: { plan: 'pro' }, $set_once: { first: 'x' } }, timestamp: '2025-01-03T00:00:00.000Z' },
      { event: '$identify', distinct_id: 'ann', properties: { $anon_distinct_id: 'anon-1' }, timestamp: '2025-01-04T00:00:00.000Z' },
      { event: '$set', distinct_id: 'bob', properties: { $set: { name: 'Bob' } }, timestamp: '2025-01-05T00:00:00.000Z' },
    ]);
    ingested = (await c.services.eventStore.readStream(ingestionStream(c.projectId))).map((e) => e.data as IngestedEventData);
    expect(ingested).toHaveLength(205);
  });
  // Each test's export is deleted after it, so its schedule makes no more runs for the tests after it.
  afterEach(async () => {
    const { results } = (await c.api('get', `${url}?limit=100`).expect(200)).body;
    for (const e of results) await c.api('delete', `${url}${e.id}/`).expect(204);
  });
  afterAll(async () => {
    await c?.stop();
    await Promise.all([pg?.stop(), receiver?.stop()]);
  });

  const inHour = (e: IngestedEventData) => e.timestamp >= H0 && e.timestamp < H1;
  const backfillHour = (id: string) => c.api('post', `${url}${id}/backfill/`).send({ start_at: H0, end_at: H1 }).expect(200);

  describe('hogql_query', () => {
    const query =
      "SELECT uuid, event, properties.$browser AS browser, properties['plan'] AS plan, toJSONString(properties.nested) AS nested, properties.nested.n AS n, " +
      "toString(team_id) AS team, timestamp, 'chronicle' AS source, 7 AS seven, distinct_id FROM events WHERE event IN ('purchase', '$pageview') AND properties.plan != 'free'";
    const aliases = ['uuid', 'event', 'browser', 'plan', 'nested', 'n', 'team', 'timestamp', 'source', 'seven', 'distinct_id'];
    /** What the query makes of an event, written out by hand from what was ingested. */
    const selected = (e: IngestedEventData) => ({
      uuid: e.uuid,
      event: e.event,
      browser: e.properties.$browser,
      plan: e.properties.plan,
      nested: JSON.stringify(e.properties.nested),
      n: String((e.properties.nested as { n: number }).n),
      team: String(c.projectId),
      timestamp: e.timestamp,
      source: 'chronicle',
      seven: 7,
      distinct_id: e.distinct_id,
    });
    const expected = () => ingested.filter((e) => inHour(e) && ['purchase', '$pageview'].includes(e.event) && e.properties.plan !== undefined && e.properties.plan !== 'free');

    it('HTTP receives exactly the SELECT list of the events the WHERE keeps', async () => {
      receiver.received.length = 0;
      const id = await create({ destination: { type: 'HTTP', config: { url: receiver.url, token: 't' } }, hogql_query: query });
      await backfillHour(id);
      await new BatchExportWorker(c.services, { ...options, chunkSize: 7 }).tick();
      const want = expected();
      expect(want.length).toBeGreaterThan(10);
      expect((await runsOf(id))[0]).toMatchObject({ status: 'Completed', records_completed: want.length, records_total_count: want.length });
      const lines = receiver.received.flatMap((r) => r.lines);
      for (const line of lines) expect(Object.keys(line)).toEqual(aliases);
      const byUuid = new Map(want.map((e) => [e.uuid, e]));
      expect(lines).toHaveLength(want.length);
      for (const line of lines) expect(line).toEqual(selected(byUuid.get(line.uuid)!));
    });

    it('Postgres gets a table whose columns follow the query, with no row twice after a crash', async () => {
      const q = "SELECT event AS name, distinct_id, properties.$browser AS browser, properties.count AS count, timestamp, created_at AS received FROM events WHERE event = 'purchase' AND properties.count >= 10";
      const want = ingested.filter((e) => inHour(e) && e.event === 'purchase' && (e.properties.count as number) >= 10);
      const id = await create({ destination: { type: 'Postgres', config: pgConfig('query_events') }, hogql_query: q });
      await backfillHour(id);
      const first: BatchExportWorker = new BatchExportWorker(c.services, {
        ...options,
        chunkSize: 5,
        afterChunkWritten: (_run, index) => {
          if (index === 1) void first.kill();
        },
      });
      await first.tick();
      expect((await runsOf(id))[0]).toMatchObject({ status: 'Running', records_completed: 5 });
      await new BatchExportWorker(c.services, { ...options, chunkSize: 5 }).tick();
      expect((await runsOf(id))[0]).toMatchObject({ status: 'Completed', records_completed: want.length, records_total_count: want.length });

      const columns = await pg.query("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'query_events' ORDER BY ordinal_position");
      expect(columns.map((r) => [r.column_name, r.data_type])).toEqual([
        ['name', 'text'],
        ['distinct_id', 'text'],
        ['browser', 'text'],
        ['count', 'text'],
        ['timestamp', 'timestamp with time zone'],
        ['received', 'timestamp with time zone'],
        // No selected field identifies the event: the table keeps its uuid in a key column of its own.
        ['_export_key', 'text'],
      ]);
      const rows = await pg.query('SELECT * FROM public.query_events');
      expect(rows).toHaveLength(want.length);
      const byUuid = new Map(want.map((e) => [e.uuid, e]));
      for (const row of rows) {
        const e = byUuid.get(row._export_key)!;
        expect({ ...row, timestamp: row.timestamp.toISOString(), received: row.received.toISOString() }).toEqual({
          name: 'purchase',
          distinct_id: e.distinct_id,
          browser: e.properties.$browser,
          count: String(e.properties.count),
          timestamp: e.timestamp,
          received: e.received_at,
          _export_key: e.uuid,
        });
      }
    });

    it('an export without a query still delivers the whole event', async () => {
      receiver.received.length = 0;
      const id = await create({ destination: { type: 'HTTP', config: { url: receiver.url, token: 't', include_events: ['purchase'] } } });
      await backfillHour(id);
      await new BatchExportWorker(c.services, options).tick();
      const want = ingested.filter((e) => inHour(e) && e.event === 'purchase');
      const lines = receiver.received.flatMap((r) => r.lines);
      expect(lines).toHaveLength(want.length);
      const byUuid = new Map(want.map((e) => [e.uuid, e]));
      for (const line of lines) {
        const e = byUuid.get(line.uuid)!;
        expect(line).toEqual({ uuid: e.uuid, event: e.event, properties: e.properties, distinct_id: e.distinct_id, team_id: c.projectId, timestamp: e.timestamp, created_at: e.received_at });
      }
    });
  });

  describe('model: persons', () => {
    /** Every person of the project as ingested: Ann (with anon-1 merged in), Bob, and the five users of the events above. */
    const expectedPersons = async () => {
      const byDistinctId = (id: string) => ingested.filter((e) => e.distinct_id === id || e.properties.$anon_distinct_id === id);
      const personOf = (ids: string[], properties: Record<string, unknown>) => {
        const events = ids.flatMap(byDistinctId);
        const person = apiPersons.get(ids[0])!;
        return {
          team_id: c.projectId,
          distinct_id: ids[0],
          person_id: person.id,
          properties,
          created_at: events.map((e) => e.timestamp).sort()[0],
          updated_at: events.map((e) => e.received_at).sort().at(-1),
          distinct_ids: ids,
        };
      };
      const api = (await c.api('get', `/api/projects/${c.projectId}/persons/?limit=100`).expect(200)).body.results as { id: string; distinct_ids: string[] }[];
      const apiPersons = new Map(api.map((p) => [p.distinct_ids[0], p]));
      return [
        personOf(['ann', 'anon-1'], { name: 'Ann', plan: 'pro', first: 'x', referrer: 'ad' }),
        personOf(['bob'], { name: 'Bob' }),
        ...[0, 1, 2, 3, 4].map((i) => personOf([`user-${i}`], {})),
      ];
    };
    /** Runs for every day from before the persons were sent to now, so the day they changed in is among them. */
    const backfillSinceSent = (id: string) =>
      c.api('post', `${url}${id}/backfill/`).send({ start_at: new Date(Math.floor(sentAtMs / DAY_MS) * DAY_MS - DAY_MS).toISOString(), end_at: new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS).toISOString() }).expect(200);
    /** Runs export intervals that have ended: the worker is told it is two days later. */
    const later = () => Date.now() + 2 * DAY_MS;
    const completed = async (id: string) => {
      const runs = await runsOf(id);
      expect(runs.length).toBeGreaterThan(0);
      for (const run of runs) expect(run).toMatchObject({ status: 'Completed', latest_error: null });
      return runs.reduce((sum: number, r: { records_completed: number }) => sum + r.records_completed, 0);
    };

    it('HTTP receives one record per changed person, merged ids folded in; a resumed run sends only the same chunk again', async () => {
      receiver.received.length = 0;
      const id = await create({ model: 'persons', interval: 'day', destination: { type: 'HTTP', config: { url: receiver.url, token: 't' } } });
      await backfillSinceSent(id);
      const first: BatchExportWorker = new BatchExportWorker(c.services, {
        ...options,
        chunkSize: 2,
        afterChunkWritten: (_run, index) => {
          if (index === 1) void first.kill();
        },
      });
      await first.tick(later());
      await new BatchExportWorker(c.services, { ...options, chunkSize: 2 }).tick(later());
      const want = await expectedPersons();
      expect(await completed(id)).toBe(want.length);
      const byKey = new Map<string, unknown[]>();
      for (const r of receiver.received) {
        const key = String(r.headers['idempotency-key']);
        if (byKey.has(key)) expect(r.lines).toEqual(byKey.get(key));
        byKey.set(key, r.lines);
      }
      expect(receiver.received.length).toBe(byKey.size + 1);
      const lines = [...byKey.values()].flat() as { distinct_id: string }[];
      expect(lines.sort((a, b) => a.distinct_id.localeCompare(b.distinct_id))).toEqual(want.sort((a, b) => a.distinct_id.localeCompare(b.distinct_id)));
    });

    it('Postgres keeps one row per person, and a later change replaces it', async () => {
      const id = await create({ model: 'persons', interval: 'day', destination: { type: 'Postgres', config: pgConfig('persons_export') } });
      await backfillSinceSent(id);
      await new BatchExportWorker(c.services, { ...options, chunkSize: 3 }).tick(later());
      const want = await expectedPersons();
      expect(await completed(id)).toBe(want.length);
      const rowsOf = async () =>
        (await pg.query('SELECT * FROM public.persons_export ORDER BY distinct_id')).map((r) => ({ ...r, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() }));
      expect(await rowsOf()).toEqual(want.sort((a, b) => (a.distinct_id < b.distinct_id ? -1 : 1)));

      // Bob renames himself; the run of that day, retried, puts his new state in place of the old row.
      await send([{ event: '$set', distinct_id: 'bob', properties: { $set: { name: 'Robert' } }, timestamp: '2025-01-06T00:00:00.000Z' }]);
      ingested = (await c.services.eventStore.readStream(ingestionStream(c.projectId))).map((e) => e.data as IngestedEventData);
      const bobChanged = ingested.at(-1)!.received_at;
      const runs = await runsOf(id);
      const run = runs.find((r: { data_interval_start: string; data_interval_end: string }) => r.data_interval_start <= bobChanged && bobChanged < r.data_interval_end);
      await c.api('post', `${url}${id}/runs/${run.id}/retry/`).expect(200);
      await new BatchExportWorker(c.services, options).tick(later());
      const rows = await rowsOf();
      expect(rows).toHaveLength(want.length);
      expect(rows.find((r) => r.distinct_id === 'bob')).toMatchObject({ properties: { name: 'Robert' }, updated_at: bobChanged });
    });

    it('waits for the persons read model, and fails retryably when it lags too long', async () => {
      const id = await create({ model: 'persons', interval: 'day', destination: { type: 'NoOp', config: {} } });
      await backfillSinceSent(id);
      const lagging = jest.spyOn(c.services.readStore, 'getCheckpoint').mockResolvedValue(0n);
      try {
        await new BatchExportWorker(c.services, { ...options, personsWaitMs: 50 }).tick(later());
      } finally {
        lagging.mockRestore();
      }
      const runs = await runsOf(id);
      expect(runs.length).toBeGreaterThan(0);
      for (const run of runs) expect(run).toMatchObject({ status: 'FailedRetryable', records_completed: null, latest_error: expect.stringContaining('persons read model') });
      await new BatchExportWorker(c.services, options).tick(later() + 61_000);
      expect(await completed(id)).toBe((await expectedPersons()).length);
    });
  });
});
