import type { Decider } from '../decider';
import type { BatchExportCommand } from './commands';
import { decide } from './decide';
import type { BatchExportEvent } from './events';
import { BatchExportState, evolve, initialState } from './state';

export const batchExportDecider: Decider<BatchExportState, BatchExportCommand, BatchExportEvent> = { decide, evolve, initialState };
export const BATCH_EXPORT_CATEGORY = 'batch_export';
export const batchExportStream = (id: string) => `${BATCH_EXPORT_CATEGORY}-${id}`;
export type { BatchExportCommand, BatchExportEvent, BatchExportState };
export type { BatchExportModel, BatchExportSettings } from './events';
