import type { Message } from '../decider';
import type { Destination } from './destinations';
import type { ExportSchema } from './hogql';
import type { Interval } from './intervals';

export type BatchExportModel = 'events' | 'persons';

/** The fields a user writes; every event that changes them carries their new values. */
export type BatchExportSettings = {
  name: string;
  model: BatchExportModel;
  destination: Destination;
  interval: Interval;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string | null;
  schema: ExportSchema | null;
};

export type BatchExportCreated = Message<
  'BatchExportCreated',
  BatchExportSettings & { id: string; organizationId: string; teamId: number; paused: boolean; createdBy: number | null; at: string }
>;
export type BatchExportUpdated = Message<'BatchExportUpdated', { id: string; changes: Partial<BatchExportSettings> & { teamId?: number }; at: string }>;
export type BatchExportPaused = Message<'BatchExportPaused', { id: string; at: string }>;
export type BatchExportUnpaused = Message<'BatchExportUnpaused', { id: string; at: string }>;
/** A stretch of time to export, cut into runs by the scheduler (it skips intervals that already have a run). */
export type BatchExportBackfillRequested = Message<
  'BatchExportBackfillRequested',
  { id: string; backfillId: string; startAt: string; endAt: string | null; at: string }
>;
export type BatchExportDeleted = Message<'BatchExportDeleted', { id: string; at: string }>;

export type BatchExportEvent =
  | BatchExportCreated
  | BatchExportUpdated
  | BatchExportPaused
  | BatchExportUnpaused
  | BatchExportBackfillRequested
  | BatchExportDeleted;
