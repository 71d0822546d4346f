import { DomainError, invalid } from '../../errors';
import type { BatchExportRunCommand } from './commands';
import type { BatchExportRunEvent } from './events';
import type { BatchExportRunState } from './state';

const RUNNABLE = new Set(['Starting', 'Running', 'FailedRetryable']);

/** The worker lost a race (the run was cancelled or finished meanwhile): it must drop the run, not overwrite it. */
const stale = (status: string) => new DomainError('conflict', 'run_not_running', `The run is ${status}.`);

export function decide(command: BatchExportRunCommand, state: BatchExportRunState): BatchExportRunEvent[] {
  const at = command.metadata.now;
  if (command.type === 'CreateBatchExportRun') {
    // Its id names its interval: an existing run means this interval is already taken care of.
    if (state.status !== 'none') return [];
    return [{ type: 'BatchExportRunCreated', data: { ...command.data, at } }];
  }
  if (state.status === 'none') throw new DomainError('not_found', 'not_found', 'Not found.');
  const base = { runId: state.runId, batchExportId: state.batchExportId, at };
  switch (command.type) {
    case 'StartBatchExportRun':
      if (!RUNNABLE.has(state.status)) throw stale(state.status);
      return [{ type: 'BatchExportRunStarted', data: { ...base, attempt: state.attempt + 1, ...command.data } }];
    case 'RecordBatchExportRunProgress':
      if (state.status !== 'Running') throw stale(state.status);
      return [{ type: 'BatchExportRunProgressed', data: { ...base, ...command.data } }];
    case 'CompleteBatchExportRun':
      if (state.status !== 'Running') throw stale(state.status);
      return [{ type: 'BatchExportRunCompleted', data: { ...base, ...command.data } }];
    case 'FailBatchExportRun': {
      if (state.status !== 'Running' && state.status !== 'Starting') throw stale(state.status);
      const { error, maxAttempts, retryAt } = command.data;
      const retryable = command.data.retryable && state.attempt < maxAttempts && retryAt !== null;
      return [{ type: 'BatchExportRunFailed', data: { ...base, error, retryable, retryAt: retryable ? retryAt : null, attempt: state.attempt } }];
    }
    case 'CancelBatchExportRun':
      if (state.status !== 'Running' && state.status !== 'Starting') throw invalid(`Cannot cancel a run that is in '${state.status}' status`);
      return [{ type: 'BatchExportRunCancelled', data: base }];
    case 'RetryBatchExportRun':
      if (state.status === 'Running' || state.status === 'Starting') throw invalid(`Cannot retry a run that is in '${state.status}' status`);
      return [{ type: 'BatchExportRunRetried', data: base }];
  }
}
