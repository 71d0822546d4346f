import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { BatchExportWorker } from '../../src/exports';
import { ingestionStream, IngestedEventData } from '../../domain/ingestion/ingested-event';
import { PROJECT_KEY, startTestChronicle, TestChronicle } from '../support/chronicle';
import { freePort, startPostgres, TestPostgres } from '../support/postgres';
import { startReceiver } from '../support/http-receiver';
import { startS3, TestS3 } from '../support/s3';

const DAY = '2025-08-01';
const H0 = `${DAY}T00:00:00.000Z`;
const H1 = `${DAY}T01:00:00.000Z`;

describe('batch exports deliver what was ingested', () => {
  let c: TestChronicle;
  let pg: TestPostgres;
  let s3: TestS3;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let ingested: IngestedEventData[];
  let url: string;
  /** The events a run of [H0, H1) must deliver: inside the hour, not excluded. */
  let expected: IngestedEventData[];

  const options = { tickMs: 1000, retryBackoffMs: 60_000, maxAttempts: 5 };
  const create = async (destination: unknown, interval = 'hour') =>
    (await c.api('post', url).send({ name: 'e2e', destination, interval }).expect(201)).body.id as string;
  const backfillHour = (id: string) => c.api('post', `${url}${id}/backfill/`).send({ start_at: H0, end_at: H1 }).expect(200);
  const runsOf = async (id: string) => (await c.api('get', `${url}${id}/runs/`).expect(200)).body.results;
  const pgConfig = (table: string) => ({ user: pg.user, password: pg.password, host: pg.host, port: pg.port, database: pg.database, table_name: table, exclude_events: ['$feature_flag_called'] });

  beforeAll(async () => {
    [c, pg, s3, receiver] = await Promise.all([startTestChronicle({ env: { BATCH_EXPORT_WORKER: 'off' } }), startPostgres(), startS3(), startReceiver()]);
    url = `/api/organizations/${c.organizationId}/batch_exports/`;
    // 250 events over two hours, a tenth of them of an excluded kind, sent through the ingestion endpoint.
    const start = Date.parse(`${DAY}T00:00:00Z`);
    const batch = Array.from({ length: 250 }, (_, i) => ({
      event: i % 10 === 3 ? '$feature_flag_called' : i % 2 ? '$pageview' : 'purchase',
      distinct_id: `user-${i % 9}`,
      properties: { distinct_id: `user-${i % 9}`, i, nested: { plan: i % 3 ? 'free' : 'pro' } },
      timestamp: new Date(start + Math.floor((i * 2 * 3600_000) / 250)).toISOString(),
    }));
    await request(c.app).post('/batch/').send({ api_key: PROJECT_KEY, historical_migration: true, batch }).expect(200);
    ingested = (await c.services.eventStore.readStream(ingestionStream(c.projectId))).map((e) => e.data as IngestedEventData);
    expect(ingested).toHaveLength(250);
    expected = ingested.filter((e) => e.timestamp >= H0 && e.timestamp < H1 && e.event !== '$feature_flag_called');
    expect(expected.length).toBeGreaterThan(100);
  });
  afterAll(async () => {
    await c?.stop();
    await Promise.all([pg?.stop(), s3?.stop(), receiver?.stop()]);
  });

  const sameEvents = (rows: { uuid: string; event: string; distinct_id: string; timestamp: string | Date; properties: any }[]) => {
    const byUuid = new Map(expected.map((e) => [e.uuid, e]));
    expect(rows).toHaveLength(expected.length);
    expect(new Set(rows.map((r) => r.uuid)).size).toBe(expected.length);
    for (const row of rows) {
      const source = byUuid.get(row.uuid)!;
      expect(source).toBeDefined();
      expect({ event: row.event, distinct_id: row.distinct_id, timestamp: new Date(row.timestamp).toISOString(), properties: row.properties }).toEqual({
        event: source.event,
        distinct_id: source.distinct_id,
        timestamp: source.timestamp,
        properties: source.properties,
      });
    }
  };

  it('exports an interval to Postgres, creating the table', async () => {
    const id = await create({ type: 'Postgres', config: pgConfig('chronicle_events') });
    await backfillHour(id);
    await new BatchExportWorker(c.services, { ...options, chunkSize: 60 }).tick();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: 'Completed', records_completed: expected.length, records_total_count: expected.length, data_interval_start: H0, data_interval_end: H1, latest_error: null });
    sameEvents(await pg.query('SELECT uuid, event, distinct_id, "timestamp", properties FROM public.chronicle_events'));
  });

  it('exports to Redshift through the same driver, idempotently on a retry', async () => {
    const id = await create({ type: 'Redshift', config: { ...pgConfig('redshift_events'), port: pg.port } });
    await backfillHour(id);
    const worker = new BatchExportWorker(c.services, { ...options, chunkSize: 70 });
    await worker.tick();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: 'Completed', records_completed: expected.length });
    await c.api('post', `${url}${id}/runs/${run.id}/retry/`).expect(200);
    await worker.tick();
    expect((await runsOf(id))[0]).toMatchObject({ status: 'Completed', records_completed: expected.length });
    const rows = await pg.query('SELECT uuid, event, distinct_id, "timestamp", properties FROM public.redshift_events');
    sameEvents(rows.map((r) => ({ ...r, properties: JSON.parse(r.properties) })));
  });

  it('POSTs JSON lines in batches to HTTP with the token and an idempotency key per chunk', async () => {
    receiver.received.length = 0;
    const id = await create({ type: 'HTTP', config: { url: receiver.url, token: 'secret-token', exclude_events: ['$feature_flag_called'] } });
    await backfillHour(id);
    await new BatchExportWorker(c.services, { ...options, chunkSize: 50 }).tick();
    expect((await runsOf(id))[0]).toMatchObject({ status: 'Completed', records_completed: expected.length });
    expect(receiver.received.length).toBe(Math.ceil(expected.length / 50));
    for (const r of receiver.received) {
      expect(r.headers.authorization).toBe('Bearer secret-token');
      expect(r.headers['content-type']).toBe('application/x-ndjson');
    }
    expect(new Set(receiver.received.map((r) => r.headers['idempotency-key'])).size).toBe(receiver.received.length);
    sameEvents(receiver.received.flatMap((r) => r.lines));
  });

  it('writes gzipped JSON lines to S3 under the prefix, one object per chunk', async () => {
    const id = await create({
      type: 'S3',
      config: { bucket_name: s3.bucket, region: 'us-east-1', prefix: 'plain', endpoint_url: s3.endpoint, aws_access_key_id: s3.accessKeyId, aws_secret_access_key: s3.secretAccessKey, compression: 'gzip', exclude_events: ['$feature_flag_called'] },
    });
    await backfillHour(id);
    await new BatchExportWorker(c.services, { ...options, chunkSize: 100 }).tick();
    expect((await runsOf(id))[0]).toMatchObject({ status: 'Completed', records_completed: expected.length });
    const objects = await s3.objects('plain/');
    expect([...objects.keys()].sort()).toEqual([0, 1].map((i) => `plain/${H0}-${H1}/00000${i}.jsonl.gz`));
    sameEvents([...objects.values()].flatMap((b) => gunzipSync(b).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))));
  });

  it('marks a run whose destination is down FailedRetryable, and retries it after the backoff', async () => {
    receiver.state.down = true;
    receiver.received.length = 0;
    const id = await create({ type: 'HTTP', config: { url: receiver.url, token: 't', exclude_events: ['$feature_flag_called'] } });
    await backfillHour(id);
    const worker = new BatchExportWorker(c.services, { ...options, retryBackoffMs: 60_000 });
    const now = Date.now();
    await worker.tick(now);
    const [failed] = await runsOf(id);
    expect(failed).toMatchObject({ status: 'FailedRetryable', records_completed: 0, latest_error: expect.stringContaining('503') });
    // Before the backoff has passed the run is left alone.
    await worker.tick(now + 1000);
    expect((await runsOf(id))[0]).toMatchObject({ status: 'FailedRetryable', last_updated_at: failed.last_updated_at });
    receiver.state.down = false;
    await worker.tick(now + 61_000);
    expect((await runsOf(id))[0]).toMatchObject({ status: 'Completed', records_completed: expected.length, latest_error: null });
    sameEvents(receiver.received.flatMap((r) => r.lines));

    const unreachable = await create({ type: 'Postgres', config: { ...pgConfig('nowhere'), port: await freePort() } });
    await backfillHour(unreachable);
    await worker.tick();
    const [run] = await runsOf(unreachable);
    expect(run).toMatchObject({ status: 'FailedRetryable', records_completed: 0, latest_error: expect.stringMatching(/ECONNREFUSED/) });
    const log = await c.api('get', `${url}${unreachable}/log_entries/?level=WARNING`).expect(200);
    expect(log.body.results[0].message).toMatch(/retrying at/);
  });

  describe('a worker killed in the middle of a run', () => {
    /** Kills the worker right after its third chunk reached the destination, before that progress is recorded. */
    async function crashThenResume(id: string, chunkSize: number) {
      await backfillHour(id);
      const first: BatchExportWorker = new BatchExportWorker(c.services, {
        ...options,
        chunkSize,
        afterChunkWritten: (_run, index) => {
          if (index === 2) void first.kill();
        },
      });
      await first.tick();
      const [halfway] = await runsOf(id);
      expect(halfway).toMatchObject({ status: 'Running', records_completed: 2 * chunkSize, records_total_count: expected.length });
      await new BatchExportWorker(c.services, { ...options, chunkSize }).tick();
      const [done] = await runsOf(id);
      expect(done).toMatchObject({ status: 'Completed', records_completed: expected.length, records_total_count: expected.length });
    }

    it('Postgres: the resumed run adds no row twice', async () => {
      const id = await create({ type: 'Postgres', config: pgConfig('crash_events') });
      await crashThenResume(id, 30);
      sameEvents(await pg.query('SELECT uuid, event, distinct_id, "timestamp", properties FROM public.crash_events'));
    });

    it('S3: the resumed run rewrites the same object, nothing more', async () => {
      const id = await create({
        type: 'S3',
        config: { bucket_name: s3.bucket, region: 'us-east-1', prefix: 'crash/', endpoint_url: s3.endpoint, aws_access_key_id: s3.accessKeyId, aws_secret_access_key: s3.secretAccessKey, exclude_events: ['$feature_flag_called'] },
      });
      await crashThenResume(id, 25);
      const objects = await s3.objects('crash/');
      expect(objects.size).toBe(Math.ceil(expected.length / 25));
      sameEvents([...objects.values()].flatMap((b) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))));
    });

    it('HTTP: the chunk sent again carries the same idempotency key and the same lines', async () => {
      receiver.received.length = 0;
      const id = await create({ type: 'HTTP', config: { url: receiver.url, token: 't', exclude_events: ['$feature_flag_called'] } });
      await crashThenResume(id, 40);
      const byKey = new Map<string, any[]>();
      for (const r of receiver.received) {
        const key = String(r.headers['idempotency-key']);
        if (byKey.has(key)) expect(r.lines).toEqual(byKey.get(key));
        byKey.set(key, r.lines);
      }
      expect(receiver.received.length).toBe(byKey.size + 1);
      sameEvents([...byKey.values()].flat());
    });
  });
});
