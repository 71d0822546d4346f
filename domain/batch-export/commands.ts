import type { Command } from '../decider';
import type { BatchExportSettings } from './events';

export type CreateBatchExport = Command<
  'CreateBatchExport',
  BatchExportSettings & { id: string; organizationId: string; teamId: number; paused: boolean }
>;
/** Only the fields given change; the router has already merged destination.config key by key. */
export type UpdateBatchExport = Command<'UpdateBatchExport', { changes: Partial<BatchExportSettings> & { teamId?: number; paused?: boolean } }>;
export type PauseBatchExport = Command<'PauseBatchExport', Record<string, never>>;
/** With backfill, the paused gap (last pause → now) is exported too. */
export type UnpauseBatchExport = Command<'UnpauseBatchExport', { backfill: boolean; backfillId: string }>;
export type BackfillBatchExport = Command<
  'BackfillBatchExport',
  { backfillId: string; startAt: string | null; endAt: string | null; hasData: boolean; earliestEventAt: string | null }
>;
export type DeleteBatchExport = Command<'DeleteBatchExport', Record<string, never>>;

export type BatchExportCommand =
  | CreateBatchExport
  | UpdateBatchExport
  | PauseBatchExport
  | UnpauseBatchExport
  | BackfillBatchExport
  | DeleteBatchExport;
