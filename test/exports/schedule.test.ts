import { floorToInterval } from '../../domain/batch-export/intervals';
import { BatchExportWorker } from '../../src/exports';
import { startTestChronicle, TestChronicle } from '../support/chronicle';
import { ingest } from './ingest';

const HOUR = 3600_000;

describe('the schedule creates runs for elapsed intervals', () => {
  let c: TestChronicle;
  let url: string;
  const options = { tickMs: 1000, retryBackoffMs: 1000, maxAttempts: 3 };
  const noop = async (body: Record<string, unknown>) =>
    (await c.api('post', url).send({ name: 'scheduled', destination: { type: 'NoOp', config: {} }, interval: 'hour', ...body }).expect(201)).body;
  const runsOf = async (id: string) => (await c.api('get', `${url}${id}/runs/?limit=1000`).expect(200)).body.results as any[];

  beforeAll(async () => {
    c = await startTestChronicle({ env: { BATCH_EXPORT_WORKER: 'off' } });
    url = `/api/organizations/${c.organizationId}/batch_exports/`;
    await ingest(c.services, c.projectId, [{ timestamp: '2025-01-01T00:30:00.000Z' }, { timestamp: '2025-01-01T03:15:00.000Z' }]);
  });
  afterAll(() => c.stop());

  it('exports every interval inside start_at/end_at once, even with two schedulers at work', async () => {
    const made = await noop({ start_at: '2025-01-01T00:00:00Z', end_at: '2025-01-01T05:00:00Z' });
    const a = new BatchExportWorker(c.services, options);
    const b = new BatchExportWorker(c.services, options);
    await Promise.all([a.tick(), b.tick()]);
    await a.tick();
    const runs = await runsOf(made.id);
    expect(runs.map((r) => r.data_interval_start).sort()).toEqual([0, 1, 2, 3, 4].map((h) => `2025-01-01T0${h}:00:00.000Z`));
    expect(runs.every((r) => r.status === 'Completed')).toBe(true);
    const byStart = Object.fromEntries(runs.map((r) => [r.data_interval_start, r.records_completed]));
    expect(byStart['2025-01-01T00:00:00.000Z']).toBe(1);
    expect(byStart['2025-01-01T03:00:00.000Z']).toBe(1);
    expect(byStart['2025-01-01T01:00:00.000Z']).toBe(0);
  });

  it('cuts every 5 minutes, day and week on their own grids', async () => {
    const five = await noop({ interval: 'every 5 minutes', start_at: '2025-01-01T00:00:00Z', end_at: '2025-01-01T00:30:00Z' });
    const day = await noop({ interval: 'day', start_at: '2025-01-01T00:00:00Z', end_at: '2025-01-03T00:00:00Z' });
    const week = await noop({ interval: 'week', start_at: '2024-12-30T00:00:00Z', end_at: '2025-01-13T00:00:00Z' });
    await new BatchExportWorker(c.services, options).tick();
    expect((await runsOf(five.id)).length).toBe(6);
    expect((await runsOf(day.id)).map((r) => [r.data_interval_start, r.data_interval_end]).sort()).toEqual([
      ['2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z'],
      ['2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z'],
    ]);
    // Weeks start on Mondays (2024-12-30 and 2025-01-06 are Mondays).
    expect((await runsOf(week.id)).map((r) => r.data_interval_start).sort()).toEqual(['2024-12-30T00:00:00.000Z', '2025-01-06T00:00:00.000Z']);
  });

  it('without start_at, starts with the interval that ends after creation; paused, it creates nothing', async () => {
    const made = await noop({});
    const created = Date.parse(made.created_at);
    const worker = new BatchExportWorker(c.services, options);
    await worker.tick(created + 3 * HOUR);
    const first = floorToInterval(created, 'hour');
    expect((await runsOf(made.id)).map((r) => r.data_interval_start).sort()).toEqual([0, 1, 2].map((h) => new Date(first + h * HOUR).toISOString()));
    await c.api('post', `${url}${made.id}/pause/`).expect(200);
    await worker.tick(created + 6 * HOUR);
    expect((await runsOf(made.id)).length).toBe(3);
  });

  it('stops at end_at', async () => {
    const made = await noop({ end_at: new Date(floorToInterval(Date.now(), 'hour') + 2 * HOUR).toISOString() });
    await new BatchExportWorker(c.services, options).tick(Date.now() + 10 * HOUR);
    const runs = await runsOf(made.id);
    expect(runs.map((r) => r.data_interval_end).sort()).toEqual([1, 2].map((h) => new Date(floorToInterval(Date.parse(made.created_at), 'hour') + h * HOUR).toISOString()));
  });
});
