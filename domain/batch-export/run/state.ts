import type { BatchExportRunEvent, RunCursor, RunStatus } from './events';

export type BatchExportRunState =
  | { status: 'none' }
  | {
      status: RunStatus;
      runId: string;
      batchExportId: string;
      attempt: number;
      recordsCompleted: number;
      cursor: RunCursor | null;
    };

export const initialState = (): BatchExportRunState => ({ status: 'none' });

export function evolve(state: BatchExportRunState, event: BatchExportRunEvent): BatchExportRunState {
  const d = event.data;
  if (event.type === 'BatchExportRunCreated') {
    return { status: 'Starting', runId: d.runId, batchExportId: d.batchExportId, attempt: 0, recordsCompleted: 0, cursor: null };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'BatchExportRunStarted':
      return { ...state, status: 'Running', attempt: event.data.attempt, cursor: event.data.cursor };
    case 'BatchExportRunProgressed':
      return { ...state, recordsCompleted: event.data.recordsCompleted, cursor: event.data.cursor };
    case 'BatchExportRunCompleted':
      return { ...state, status: 'Completed', recordsCompleted: event.data.recordsCompleted };
    case 'BatchExportRunFailed':
      return { ...state, status: event.data.retryable ? 'FailedRetryable' : 'Failed' };
    case 'BatchExportRunCancelled':
      return { ...state, status: 'Cancelled' };
    case 'BatchExportRunRetried':
      return { ...state, status: 'Starting', attempt: 0, recordsCompleted: 0, cursor: null };
    default:
      return state;
  }
}
