import type { CommandMetadata } from '../../domain/decider';
import { DomainError } from '../../domain/errors';
import { batchExportRunDecider, batchExportRunStream, BatchExportRunState, RunCursor } from '../../domain/batch-export/run';
import type { Services } from '../container';
import { createWriter, DestinationWriter, PermanentDestinationError } from './destinations';
import type { BatchExportDoc, BatchExportRunDoc } from './documents';
import type { ExportRecord } from './records';
import { runSource } from './run-source';
import { RunScheduler } from './scheduler';

export type WorkerOptions = {
  tickMs: number;
  /** First retry waits this long, each later one twice as long as the one before. */
  retryBackoffMs: number;
  maxAttempts: number;
  /** Records per chunk: one destination write and one progress event each. */
  chunkSize?: number;
  /** Called after a chunk reached the destination and before its progress is recorded (tests crash here). */
  afterChunkWritten?: (runId: string, chunkIndex: number) => Promise<void> | void;
  /** How long a persons run waits for the persons read model to reach the log's head before failing retryably. */
  personsWaitMs?: number;
};

const RUNNABLE = ['Starting', 'Running', 'FailedRetryable'];

/**
 * Executes batch-export runs. Each run reads its interval's events from the event store in stream order and
 * delivers them chunk by chunk; a chunk's progress (cursor + records_completed) is recorded only once the
 * destination has it. After a crash the run is still Running: the next worker resumes at its cursor and writes
 * at most the last chunk again, which the destination's keys turn into a no-op.
 *
 * One worker per installation (as with the projection runner): runs that are Running but not in this
 * worker's hands were left by a previous process and are resumed.
 */
export class BatchExportWorker {
  private readonly scheduler: RunScheduler;
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private stopping = false;
  private killed = false;
  private readonly chunkSize: number;

  constructor(
    private readonly services: Services,
    private readonly options: WorkerOptions,
  ) {
    this.scheduler = new RunScheduler(services);
    this.chunkSize = options.chunkSize ?? 5000;
  }

  start() {
    this.stopping = false;
    this.schedule(0);
    return this;
  }

  /** Graceful: the run in hand stops between chunks (it stays Running and is resumed on the next start). */
  async stop() {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
  }

  /** Stops at once without recording anything more, as a killed process would. */
  async kill() {
    this.killed = true;
    await this.stop();
  }

  /** One pass of scheduling and execution; the loop calls it, tests may too. */
  async tick(now = Date.now()) {
    try {
      await this.scheduler.tick(now);
    } catch (error) {
      this.services.logger.error('batch export scheduling failed', { error: String(error) });
    }
    // Only runs that can go now fill the window: pending runs of paused exports, or retries not yet due, must
    // not keep runnable ones out of it.
    const live = await this.services.readStore.find<BatchExportDoc>('batch_exports', { deleted: false, paused: false });
    const candidates = await this.services.readStore.find<BatchExportRunDoc>(
      'batch_export_runs',
      {
        batch_export_id: { $in: live.map((d) => d.id) },
        $or: [{ status: { $in: ['Starting', 'Running'] } }, { status: 'FailedRetryable', retry_at: { $lte: new Date(now).toISOString() } }],
      },
      { sort: [['created_at', 1], ['data_interval_start', 1]], limit: 100 },
    );
    for (const run of candidates) {
      if (this.stopping) return;
      if (this.inFlight.has(run.id)) continue;
      if (run.status === 'FailedRetryable' && run.retry_at && Date.parse(run.retry_at) > now) continue;
      const doc = await this.services.readStore.get<BatchExportDoc>('batch_exports', run.batch_export_id);
      // Pausing stops new work: pending runs of a paused export wait for the unpause.
      if (!doc || doc.deleted || doc.paused) continue;
      this.inFlight.add(run.id);
      try {
        await this.execute(run.id, doc);
      } catch (error) {
        this.services.logger.error('batch export run crashed', { run: run.id, error: String(error) });
      } finally {
        this.inFlight.delete(run.id);
      }
    }
  }

  private schedule(delay: number) {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.current = this.tick()
        .catch((error) => this.services.logger.error('batch export tick failed', { error: String(error) }))
        .finally(() => {
          this.current = null;
          this.schedule(this.options.tickMs);
        });
    }, delay);
    this.timer.unref?.();
  }

  private metadata(): CommandMetadata {
    return { now: new Date().toISOString() };
  }

  private async command(runId: string, command: { type: string; data: unknown }) {
    if (this.killed) throw new Killed();
    return this.services.commands.handle(batchExportRunDecider, batchExportRunStream(runId), { ...command, metadata: this.metadata() } as any);
  }

  private async execute(runId: string, doc: BatchExportDoc) {
    const { state } = await this.services.commands.load(batchExportRunDecider, batchExportRunStream(runId));
    if (state.status === 'none' || !RUNNABLE.includes(state.status)) return;
    const run = (await this.services.readStore.get<BatchExportRunDoc>('batch_export_runs', runId))!;
    let writer: DestinationWriter | null = null;
    let attempt = state.attempt;
    try {
      const source = runSource(this.services, doc, run, { personsWaitMs: this.options.personsWaitMs ?? 10_000 });
      writer = createWriter(doc.destination, source.shape);
      const cursor = resumableCursor(state) ?? { afterRevision: null, chunks: 0, upToRevision: await source.upTo() };
      const prepared = await source.prepare(cursor);
      await this.command(runId, { type: 'StartBatchExportRun', data: { recordsTotalCount: prepared.total, cursor } });
      attempt += 1;
      let completed = state.cursor ? state.recordsCompleted : 0;
      let position = cursor;
      const records = prepared.records(cursor.afterRevision);
      for (;;) {
        if (this.stopping) return;
        const chunk: ExportRecord[] = [];
        const keys: string[] = [];
        let last: string | null = null;
        while (chunk.length < this.chunkSize) {
          const next = await records.next();
          if (next.done) break;
          chunk.push(next.value.record);
          keys.push(next.value.key);
          last = next.value.position;
        }
        if (chunk.length === 0) break;
        const index = position.chunks;
        await writer.write({ runId, index, dataIntervalStart: run.data_interval_start, dataIntervalEnd: run.data_interval_end, records: chunk, keys });
        await this.options.afterChunkWritten?.(runId, index);
        if (this.killed) return;
        completed += chunk.length;
        position = { afterRevision: last, chunks: index + 1, upToRevision: cursor.upToRevision };
        await this.command(runId, { type: 'RecordBatchExportRunProgress', data: { recordsCompleted: completed, cursor: position } });
        if (chunk.length < this.chunkSize) break;
      }
      await this.command(runId, { type: 'CompleteBatchExportRun', data: { recordsCompleted: completed } });
    } catch (error) {
      if (error instanceof Killed || this.killed) return;
      // Cancelled (or finished elsewhere) meanwhile: the run's history already says what happened.
      if (error instanceof DomainError && error.kind === 'conflict') return;
      const retryable = !(error instanceof PermanentDestinationError);
      const backoff = this.options.retryBackoffMs * 2 ** Math.max(0, attempt - 1);
      const message = describe(error);
      this.services.logger.warn('batch export run failed', { run: runId, retryable, error: message });
      try {
        await this.command(runId, {
          type: 'FailBatchExportRun',
          data: { error: message, retryable, maxAttempts: this.options.maxAttempts, retryAt: new Date(Date.now() + backoff).toISOString() },
        });
      } catch (failure) {
        if (!(failure instanceof DomainError) && !(failure instanceof Killed)) throw failure;
      }
    } finally {
      await writer?.close();
    }
  }
}

class Killed extends Error {}

/** A run that already started keeps its cursor (resume); a fresh or retried one has none. */
function resumableCursor(state: BatchExportRunState): RunCursor | null {
  return state.status === 'none' ? null : state.cursor;
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return describe(error.errors[0]);
  const e = error as { message?: string; code?: string; name?: string; cause?: unknown };
  const base = e?.message || e?.code || e?.name || String(error);
  if (e?.cause && (e.cause as Error).message && !base.includes((e.cause as Error).message)) return `${base}: ${(e.cause as Error).message}`;
  return base;
}
