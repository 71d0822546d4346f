import type { Decider } from '../../decider';
import type { BatchExportRunCommand } from './commands';
import { decide } from './decide';
import type { BatchExportRunEvent } from './events';
import { BatchExportRunState, evolve, initialState } from './state';

export const batchExportRunDecider: Decider<BatchExportRunState, BatchExportRunCommand, BatchExportRunEvent> = { decide, evolve, initialState };
/** Runs have their own streams: an export's stream stays short however many runs it has, and a run id is its interval. */
export const BATCH_EXPORT_RUN_CATEGORY = 'batch_export_run';
export const batchExportRunStream = (runId: string) => `${BATCH_EXPORT_RUN_CATEGORY}-${runId}`;
export type { BatchExportRunCommand, BatchExportRunEvent, BatchExportRunState };
export type { RunCursor, RunStatus, RunTrigger } from './events';
