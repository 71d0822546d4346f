import { batchExportsProjection } from '../../projections/batch-exports';
import { applyEvent, documentKey, ProjectedEvent } from '../../projections/projection';
import type { Doc } from '../../src/readstore/port';

const exportId = 'e1';
const runId = 'r1';
let position = 0n;
const exportEvent = (type: string, data: Record<string, unknown>, revision: bigint): ProjectedEvent => ({
  type, data: { id: exportId, ...data }, metadata: {}, streamId: `batch_export-${exportId}`, revision, position: ++position,
});
const runEvent = (type: string, data: Record<string, unknown>, revision: bigint): ProjectedEvent => ({
  type, data: { runId, batchExportId: exportId, ...data }, metadata: {}, streamId: `batch_export_run-${runId}`, revision, position: ++position,
});

const events: ProjectedEvent[] = [
  exportEvent('BatchExportCreated', { organizationId: 'o', teamId: 1, name: 'x', model: 'events', destination: { type: 'NoOp', config: {} }, interval: 'hour', paused: false, start_at: null, end_at: null, hogql_query: null, schema: null, createdBy: 1, at: '2026-01-01T00:00:00.000Z' }, 0n),
  exportEvent('BatchExportPaused', { at: '2026-01-01T01:00:00.000Z' }, 1n),
  exportEvent('BatchExportUnpaused', { at: '2026-01-01T02:00:00.000Z' }, 2n),
  exportEvent('BatchExportBackfillRequested', { backfillId: 'b', startAt: '2026-01-01T01:00:00.000Z', endAt: '2026-01-01T02:00:00.000Z', at: '2026-01-01T02:00:00.000Z' }, 3n),
  runEvent('BatchExportRunCreated', { teamId: 1, dataIntervalStart: '2026-01-01T01:00:00.000Z', dataIntervalEnd: '2026-01-01T02:00:00.000Z', trigger: 'backfill', backfillId: 'b', at: '2026-01-01T02:00:01.000Z' }, 0n),
  runEvent('BatchExportRunStarted', { attempt: 1, recordsTotalCount: 7, cursor: { afterRevision: null, chunks: 0, upToRevision: '9' }, at: '2026-01-01T02:00:02.000Z' }, 1n),
  runEvent('BatchExportRunProgressed', { recordsCompleted: 5, cursor: { afterRevision: '6', chunks: 1, upToRevision: '9' }, at: '2026-01-01T02:00:03.000Z' }, 2n),
  runEvent('BatchExportRunFailed', { error: 'down', retryable: true, retryAt: '2026-01-01T02:01:00.000Z', attempt: 1, at: '2026-01-01T02:00:04.000Z' }, 3n),
  runEvent('BatchExportRunStarted', { attempt: 2, recordsTotalCount: 7, cursor: { afterRevision: '6', chunks: 1, upToRevision: '9' }, at: '2026-01-01T02:01:00.000Z' }, 4n),
  runEvent('BatchExportRunCompleted', { recordsCompleted: 7, at: '2026-01-01T02:01:01.000Z' }, 5n),
];

function project(list: ProjectedEvent[]) {
  const docs = new Map<string, Doc | null>();
  for (const e of list) applyEvent(batchExportsProjection, e, docs);
  return docs;
}

describe('batch exports projection', () => {
  it('keeps the export, its runs and a log entry per transition', () => {
    const docs = project(events);
    const exp = docs.get(documentKey({ collection: 'batch_exports', id: exportId }))!;
    expect(exp).toMatchObject({ paused: false, last_paused_at: '2026-01-01T01:00:00.000Z', schedule_anchor: '2026-01-01T02:00:00.000Z', backfills: [{ id: 'b' }] });
    const run = docs.get(documentKey({ collection: 'batch_export_runs', id: runId }))!;
    expect(run).toMatchObject({ status: 'Completed', records_completed: 7, records_total_count: 7, latest_error: null, finished_at: '2026-01-01T02:01:01.000Z', batch_export_id: exportId });
    const entries = [...docs.entries()].filter(([k]) => k.startsWith('batch_export_log_entries')).map(([, d]) => d!);
    expect(entries.map((e) => e.level)).toEqual(['INFO', 'INFO', 'INFO', 'INFO', 'INFO', 'WARNING', 'INFO', 'INFO']);
  });

  it('is unchanged when every event is applied twice', () => {
    const once = project(events);
    const twice = new Map<string, Doc | null>();
    for (const e of events) {
      applyEvent(batchExportsProjection, e, twice);
      applyEvent(batchExportsProjection, e, twice);
    }
    expect(twice).toEqual(once);
    for (const e of events) applyEvent(batchExportsProjection, e, twice);
    expect(twice).toEqual(once);
  });
});
