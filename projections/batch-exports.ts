import type { Projection, ProjectedEvent } from './projection';

const EXPORT_PREFIX = 'batch_export-';
const RUN_PREFIX = 'batch_export_run-';

const RUN_STATUS_OF: Record<string, string> = {
  BatchExportRunCreated: 'Starting',
  BatchExportRunStarted: 'Running',
  BatchExportRunCompleted: 'Completed',
  BatchExportRunCancelled: 'Cancelled',
  BatchExportRunRetried: 'Starting',
};

function logEntryOf(event: ProjectedEvent): { level: string; message: string; instanceId: string } | null {
  const d = event.data;
  const interval = d.dataIntervalStart ? ` for ${d.dataIntervalStart} to ${d.dataIntervalEnd}` : '';
  switch (event.type) {
    case 'BatchExportRunCreated':
      return { level: 'INFO', message: `Run created by ${d.trigger}${interval}`, instanceId: d.runId };
    case 'BatchExportRunStarted':
      return { level: 'INFO', message: `Run started (attempt ${d.attempt}), ${d.recordsTotalCount} records to export`, instanceId: d.runId };
    case 'BatchExportRunCompleted':
      return { level: 'INFO', message: `Run completed, ${d.recordsCompleted} records exported`, instanceId: d.runId };
    case 'BatchExportRunFailed':
      return {
        level: d.retryable ? 'WARNING' : 'ERROR',
        message: d.retryable ? `Run failed (attempt ${d.attempt}), retrying at ${d.retryAt}: ${d.error}` : `Run failed: ${d.error}`,
        instanceId: d.runId,
      };
    case 'BatchExportRunCancelled':
      return { level: 'INFO', message: 'Run cancelled', instanceId: d.runId };
    case 'BatchExportRunRetried':
      return { level: 'INFO', message: 'Run retried', instanceId: d.runId };
    case 'BatchExportPaused':
      return { level: 'INFO', message: 'Batch export paused', instanceId: '' };
    case 'BatchExportUnpaused':
      return { level: 'INFO', message: 'Batch export unpaused', instanceId: '' };
    case 'BatchExportBackfillRequested':
      return { level: 'INFO', message: `Backfill requested from ${d.startAt} to ${d.endAt ?? 'now'}`, instanceId: d.backfillId };
    default:
      return null;
  }
}

/**
 * Batch exports, their runs and their log entries. Runs live in their own streams; each run event names its
 * export, so one projection keeps the three collections in step. Log entries are derived from the same events:
 * what the log says is exactly what happened.
 */
export const batchExportsProjection: Projection = {
  name: 'batch-exports',
  version: 1,
  categories: ['batch_export', 'batch_export_run'],
  collections: {
    batch_exports: [['organization_id', 'deleted'], ['created_at']],
    batch_export_runs: [['batch_export_id', 'created_at'], ['batch_export_id', 'data_interval_start'], ['status']],
    batch_export_log_entries: [['batch_export_id', 'timestamp']],
  },
  lag: 'awaited',
  keys(event) {
    const isRun = event.streamId.startsWith(RUN_PREFIX);
    const exportId = isRun ? event.data.batchExportId : event.streamId.slice(EXPORT_PREFIX.length);
    const keys = [];
    if (isRun) keys.push({ collection: 'batch_export_runs', id: event.streamId.slice(RUN_PREFIX.length) });
    else keys.push({ collection: 'batch_exports', id: exportId });
    if (logEntryOf(event)) keys.push({ collection: 'batch_export_log_entries', id: `${event.streamId}:${event.revision}` });
    return keys;
  },
  evolve(doc, event, key) {
    if (key.collection === 'batch_export_log_entries') {
      if (doc) return doc;
      const entry = logEntryOf(event)!;
      const exportId = event.data.batchExportId ?? event.data.id;
      return {
        _id: key.id,
        batch_export_id: exportId,
        log_source_id: exportId,
        instance_id: entry.instanceId,
        timestamp: event.data.at,
        level: entry.level,
        message: entry.message,
      };
    }
    if (key.collection === 'batch_export_runs') return evolveRun(doc, event);
    return evolveExport(doc, event);
  },
};

function evolveExport(doc: any, event: ProjectedEvent) {
  const d = event.data;
  if (event.type === 'BatchExportCreated') {
    return {
      _id: d.id,
      id: d.id,
      organization_id: d.organizationId,
      team_id: d.teamId,
      name: d.name,
      model: d.model,
      destination: d.destination,
      interval: d.interval,
      paused: d.paused,
      created_at: d.at,
      last_updated_at: d.at,
      last_paused_at: d.paused ? d.at : null,
      start_at: d.start_at,
      end_at: d.end_at,
      hogql_query: d.hogql_query,
      schema: d.schema,
      created_by: d.createdBy,
      deleted: false,
      /** The schedule exports intervals that end after this moment (creation, or the last unpause). */
      schedule_anchor: d.at,
      backfills: [],
    };
  }
  if (!doc) return doc;
  switch (event.type) {
    case 'BatchExportUpdated': {
      const { teamId, ...settings } = d.changes;
      return { ...doc, ...settings, team_id: teamId ?? doc.team_id, last_updated_at: d.at };
    }
    case 'BatchExportPaused':
      return { ...doc, paused: true, last_paused_at: d.at, last_updated_at: d.at };
    case 'BatchExportUnpaused':
      return { ...doc, paused: false, schedule_anchor: d.at, last_updated_at: d.at };
    case 'BatchExportBackfillRequested':
      return { ...doc, backfills: [...doc.backfills, { id: d.backfillId, start_at: d.startAt, end_at: d.endAt, created_at: d.at }] };
    case 'BatchExportDeleted':
      return { ...doc, deleted: true, last_updated_at: d.at };
    default:
      return doc;
  }
}

function evolveRun(doc: any, event: ProjectedEvent) {
  const d = event.data;
  if (event.type === 'BatchExportRunCreated') {
    return {
      _id: d.runId,
      id: d.runId,
      batch_export_id: d.batchExportId,
      team_id: d.teamId,
      status: 'Starting',
      records_completed: null,
      records_total_count: null,
      latest_error: null,
      data_interval_start: d.dataIntervalStart,
      data_interval_end: d.dataIntervalEnd,
      cursor: null,
      created_at: d.at,
      finished_at: null,
      last_updated_at: d.at,
      trigger: d.trigger,
      backfill_id: d.backfillId,
      attempt: 0,
      retry_at: null,
    };
  }
  if (!doc) return doc;
  const next = { ...doc, last_updated_at: d.at };
  if (RUN_STATUS_OF[event.type]) next.status = RUN_STATUS_OF[event.type];
  switch (event.type) {
    case 'BatchExportRunStarted':
      return { ...next, attempt: d.attempt, records_total_count: d.recordsTotalCount, records_completed: doc.records_completed ?? 0, cursor: JSON.stringify(d.cursor), retry_at: null, finished_at: null };
    case 'BatchExportRunProgressed':
      return { ...next, records_completed: d.recordsCompleted, cursor: JSON.stringify(d.cursor) };
    case 'BatchExportRunCompleted':
      return { ...next, records_completed: d.recordsCompleted, latest_error: null, finished_at: d.at };
    case 'BatchExportRunFailed':
      return { ...next, status: d.retryable ? 'FailedRetryable' : 'Failed', latest_error: d.error, retry_at: d.retryAt, finished_at: d.at };
    case 'BatchExportRunCancelled':
      return { ...next, finished_at: d.at };
    case 'BatchExportRunRetried':
      return { ...next, trigger: doc.trigger, records_completed: null, records_total_count: null, cursor: null, finished_at: null, attempt: 0, retry_at: null };
    default:
      return doc;
  }
}
