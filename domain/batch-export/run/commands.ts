import type { Command } from '../../decider';
import type { RunCursor, RunTrigger } from './events';

export type CreateBatchExportRun = Command<
  'CreateBatchExportRun',
  { runId: string; batchExportId: string; teamId: number; dataIntervalStart: string; dataIntervalEnd: string; trigger: RunTrigger; backfillId: string | null }
>;
/** The worker takes the run; `cursor` is where it will read from (a fresh one, or the stored one on resume). */
export type StartBatchExportRun = Command<'StartBatchExportRun', { recordsTotalCount: number; cursor: RunCursor }>;
export type RecordBatchExportRunProgress = Command<'RecordBatchExportRunProgress', { recordsCompleted: number; cursor: RunCursor }>;
export type CompleteBatchExportRun = Command<'CompleteBatchExportRun', { recordsCompleted: number }>;
export type FailBatchExportRun = Command<'FailBatchExportRun', { error: string; retryable: boolean; maxAttempts: number; retryAt: string | null }>;
export type CancelBatchExportRun = Command<'CancelBatchExportRun', Record<string, never>>;
export type RetryBatchExportRun = Command<'RetryBatchExportRun', Record<string, never>>;

export type BatchExportRunCommand =
  | CreateBatchExportRun
  | StartBatchExportRun
  | RecordBatchExportRunProgress
  | CompleteBatchExportRun
  | FailBatchExportRun
  | CancelBatchExportRun
  | RetryBatchExportRun;
