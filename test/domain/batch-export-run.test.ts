import { batchExportRunDecider } from '../../domain/batch-export/run';
import type { BatchExportRunEvent } from '../../domain/batch-export/run';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(batchExportRunDecider);
const runId = 'r1';
const base = { runId, batchExportId: 'e1' };
const at = '2026-01-01T02:00:00.000Z';
const createdData = { ...base, teamId: 1, dataIntervalStart: '2026-01-01T00:00:00.000Z', dataIntervalEnd: '2026-01-01T01:00:00.000Z', trigger: 'schedule' as const, backfillId: null };
const created: BatchExportRunEvent = { type: 'BatchExportRunCreated', data: { ...createdData, at } };
const cursor = { afterRevision: null, chunks: 0, upToRevision: '99' };
const started: BatchExportRunEvent = { type: 'BatchExportRunStarted', data: { ...base, at, attempt: 1, recordsTotalCount: 10, cursor } };
const completed: BatchExportRunEvent = { type: 'BatchExportRunCompleted', data: { ...base, at, recordsCompleted: 10 } };

describe('batch export run decider', () => {
  it('creates the run of an interval once', () => {
    spec.given([]).when({ type: 'CreateBatchExportRun', data: createdData, metadata: meta(at) }).then([created]);
    spec.given([created]).when({ type: 'CreateBatchExportRun', data: createdData, metadata: meta(at) }).thenNothingHappened();
  });

  it('moves Starting → Running → Completed, counting attempts', () => {
    spec.given([created]).when({ type: 'StartBatchExportRun', data: { recordsTotalCount: 10, cursor }, metadata: meta(at) }).then([started]);
    spec.given([created, started]).when({ type: 'CompleteBatchExportRun', data: { recordsCompleted: 10 }, metadata: meta(at) }).then([completed]);
    spec.given([created]).when({ type: 'CompleteBatchExportRun', data: { recordsCompleted: 10 }, metadata: meta(at) }).thenThrows({ kind: 'conflict' });
  });

  it('fails retryably until the attempts are used up', () => {
    const fail = { type: 'FailBatchExportRun' as const, data: { error: 'down', retryable: true, maxAttempts: 2, retryAt: '2026-01-01T03:00:00.000Z' }, metadata: meta(at) };
    spec.given([created, started]).when(fail).then([{ type: 'BatchExportRunFailed', data: { ...base, at, error: 'down', retryable: true, retryAt: '2026-01-01T03:00:00.000Z', attempt: 1 } }]);
    const second: BatchExportRunEvent = { type: 'BatchExportRunStarted', data: { ...base, at, attempt: 2, recordsTotalCount: 10, cursor } };
    spec.given([created, started, second]).when(fail).then([{ type: 'BatchExportRunFailed', data: { ...base, at, error: 'down', retryable: false, retryAt: null, attempt: 2 } }]);
  });

  it('cancels only Starting or Running runs; retries only finished ones', () => {
    spec.given([created]).when({ type: 'CancelBatchExportRun', data: {}, metadata: meta(at) }).then([{ type: 'BatchExportRunCancelled', data: { ...base, at } }]);
    spec.given([created, started, completed]).when({ type: 'CancelBatchExportRun', data: {}, metadata: meta(at) }).thenThrows({ kind: 'validation', detail: "Cannot cancel a run that is in 'Completed' status" });
    spec.given([created, started, completed]).when({ type: 'RetryBatchExportRun', data: {}, metadata: meta(at) }).then([{ type: 'BatchExportRunRetried', data: { ...base, at } }]);
    spec.given([created, started]).when({ type: 'RetryBatchExportRun', data: {}, metadata: meta(at) }).thenThrows({ detail: "Cannot retry a run that is in 'Running' status" });
  });

  it('refuses progress on a cancelled run, so the worker stops', () => {
    const cancelled: BatchExportRunEvent = { type: 'BatchExportRunCancelled', data: { ...base, at } };
    spec.given([created, started, cancelled]).when({ type: 'RecordBatchExportRunProgress', data: { recordsCompleted: 5, cursor }, metadata: meta(at) }).thenThrows({ kind: 'conflict' });
  });
});
