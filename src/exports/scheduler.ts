import type { CommandMetadata } from '../../domain/decider';
import { DataInterval, intervalsBetween, runIdFor } from '../../domain/batch-export/intervals';
import { batchExportRunDecider, batchExportRunStream, RunTrigger } from '../../domain/batch-export/run';
import type { Services } from '../container';
import type { BatchExportDoc, BatchExportRunDoc } from './documents';

/** How many runs one export may gain per tick: a long outage or a big backfill catches up over several ticks. */
const MAX_NEW_RUNS_PER_TICK = 500;

/**
 * Turns the schedule and the backfills of every live export into runs. It may be wrong about what exists (the
 * read model lags, another process schedules too): the run id is its interval, so a duplicate is a no-op.
 */
export class RunScheduler {
  /** backfill id → start (ms) of the first interval not yet known to have a run. */
  private readonly backfillCursor = new Map<string, number>();

  constructor(private readonly services: Services) {}

  async tick(nowMs: number) {
    const exports = await this.services.readStore.find<BatchExportDoc>('batch_exports', { deleted: false, paused: false });
    for (const doc of exports) {
      await this.schedule(doc, nowMs);
      for (const backfill of doc.backfills) await this.backfill(doc, backfill, nowMs);
    }
  }

  /** Elapsed intervals since the schedule began, inside start_at/end_at. */
  private async schedule(doc: BatchExportDoc, nowMs: number) {
    const unpausedSinceCreation = doc.schedule_anchor !== doc.created_at;
    const anchorMs = Date.parse(doc.schedule_anchor);
    let fromMs = doc.start_at ? Date.parse(doc.start_at) : anchorMs;
    if (doc.start_at && unpausedSinceCreation) fromMs = Math.max(fromMs, anchorMs);
    const [latest] = await this.services.readStore.find<BatchExportRunDoc>(
      'batch_export_runs',
      { batch_export_id: doc.id, trigger: 'schedule' },
      { sort: [['data_interval_start', -1]], limit: 1 },
    );
    if (latest) fromMs = Math.max(fromMs, Date.parse(latest.data_interval_end));
    const endMs = Math.min(nowMs, doc.end_at ? Date.parse(doc.end_at) : Number.POSITIVE_INFINITY);
    const due = intervalsBetween(fromMs, endMs, doc.interval, MAX_NEW_RUNS_PER_TICK).filter((i) => Date.parse(i.end) <= endMs);
    await this.createRuns(doc, due, 'schedule', null);
  }

  private async backfill(doc: BatchExportDoc, backfill: BatchExportDoc['backfills'][number], nowMs: number) {
    const fromMs = this.backfillCursor.get(backfill.id) ?? Date.parse(backfill.start_at);
    const stopMs = backfill.end_at ? Date.parse(backfill.end_at) : nowMs;
    // Only intervals that have ended are exported; the others wait for a later tick (open-ended backfills follow now).
    const due = intervalsBetween(fromMs, stopMs, doc.interval, MAX_NEW_RUNS_PER_TICK).filter((i) => Date.parse(i.end) <= nowMs);
    if (due.length === 0) return;
    const existing = new Set(
      (await this.services.readStore.getMany<BatchExportRunDoc>('batch_export_runs', due.map((i) => runIdFor(doc.id, i)))).map((r) => r.id),
    );
    await this.createRuns(doc, due.filter((i) => !existing.has(runIdFor(doc.id, i))), 'backfill', backfill.id);
    this.backfillCursor.set(backfill.id, Date.parse(due[due.length - 1].end));
  }

  private async createRuns(doc: BatchExportDoc, intervals: DataInterval[], trigger: RunTrigger, backfillId: string | null) {
    for (const interval of intervals) {
      const runId = runIdFor(doc.id, interval);
      const metadata: CommandMetadata = { now: new Date().toISOString() };
      await this.services.commands.handle(batchExportRunDecider, batchExportRunStream(runId), {
        type: 'CreateBatchExportRun',
        data: { runId, batchExportId: doc.id, teamId: doc.team_id, dataIntervalStart: interval.start, dataIntervalEnd: interval.end, trigger, backfillId },
        metadata,
      });
    }
  }
}
