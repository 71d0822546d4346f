import type { Destination } from '../../domain/batch-export/destinations';
import type { ExportSchema } from '../../domain/batch-export/hogql';
import type { Interval } from '../../domain/batch-export/intervals';

/** The batch-export read models as the router and the worker read them (written by projections/batch-exports.ts). */
export type BatchExportDoc = {
  _id: string;
  id: string;
  organization_id: string;
  team_id: number;
  name: string;
  model: 'events' | 'persons';
  /** With its secrets: the worker needs them; serializers drop them. */
  destination: Destination;
  interval: Interval;
  paused: boolean;
  created_at: string;
  last_updated_at: string;
  last_paused_at: string | null;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string | null;
  schema: ExportSchema | null;
  deleted: boolean;
  schedule_anchor: string;
  backfills: { id: string; start_at: string; end_at: string | null; created_at: string }[];
};

export type BatchExportRunDoc = {
  _id: string;
  id: string;
  batch_export_id: string;
  team_id: number;
  status: string;
  records_completed: number | null;
  records_total_count: number | null;
  latest_error: string | null;
  data_interval_start: string;
  data_interval_end: string;
  cursor: string | null;
  created_at: string;
  finished_at: string | null;
  last_updated_at: string;
  trigger: string;
  backfill_id: string | null;
  attempt: number;
  retry_at: string | null;
};

export type BatchExportLogEntryDoc = {
  _id: string;
  batch_export_id: string;
  log_source_id: string;
  instance_id: string;
  timestamp: string;
  level: string;
  message: string;
};
