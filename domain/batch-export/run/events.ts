import type { Message } from '../../decider';

export type RunStatus = 'Starting' | 'Running' | 'Completed' | 'Failed' | 'FailedRetryable' | 'Cancelled';
export type RunTrigger = 'schedule' | 'backfill' | 'retry';

/**
 * Where a run stands in its source: the position of the last record confirmed at the destination (events: its
 * stream revision; persons: its person id, the order persons are delivered in), the number of chunks written,
 * and the revision the run reads up to (fixed when it first starts, so a resumed or retried run cuts the same
 * chunks and writes the same object keys / row keys again).
 */
export type RunCursor = { afterRevision: string | null; chunks: number; upToRevision: string | null };

type Base = { runId: string; batchExportId: string; at: string };

export type BatchExportRunCreated = Message<
  'BatchExportRunCreated',
  Base & { teamId: number; dataIntervalStart: string; dataIntervalEnd: string; trigger: RunTrigger; backfillId: string | null }
>;
export type BatchExportRunStarted = Message<'BatchExportRunStarted', Base & { attempt: number; recordsTotalCount: number; cursor: RunCursor }>;
/** Written only after the destination acknowledged the chunk: records_completed never exceeds what arrived. */
export type BatchExportRunProgressed = Message<'BatchExportRunProgressed', Base & { recordsCompleted: number; cursor: RunCursor }>;
export type BatchExportRunCompleted = Message<'BatchExportRunCompleted', Base & { recordsCompleted: number }>;
export type BatchExportRunFailed = Message<
  'BatchExportRunFailed',
  Base & { error: string; retryable: boolean; retryAt: string | null; attempt: number }
>;
export type BatchExportRunCancelled = Message<'BatchExportRunCancelled', Base>;
/** Back to Starting from the beginning of its interval: the destination's keys make the second delivery a no-op. */
export type BatchExportRunRetried = Message<'BatchExportRunRetried', Base>;

export type BatchExportRunEvent =
  | BatchExportRunCreated
  | BatchExportRunStarted
  | BatchExportRunProgressed
  | BatchExportRunCompleted
  | BatchExportRunFailed
  | BatchExportRunCancelled
  | BatchExportRunRetried;
