import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Projection } from '../../projections/projection';
import type { Config } from '../config';
import { EmbeddedEventStore } from '../eventstore/embedded';
import type { EventStore } from '../eventstore/port';
import type { Logger } from '../logger';
import type { OffloadedProjections, ProgressListener } from './runner';

/** Messages between the main thread and the projection thread. */
export type ToWorker = { type: 'appended' } | { type: 'stop' };
export type FromWorker = { type: 'progress'; name: string; position: string; caughtUp: boolean } | { type: 'stopped' };
export type WorkerInput = { config: Config; names: string[] };

const STOP_TIMEOUT_MS = 5000;

/**
 * Runs the given projections on a worker thread with its own connections to the stores. SQLite's WAL lets the
 * worker read the log and write read models while the main thread appends; the main thread forwards each commit
 * so the worker's subscriptions wake at once. A worker that dies is started again, from its checkpoints.
 */
export class ProjectionWorker implements OffloadedProjections {
  private worker: Worker | undefined;
  private stopping = false;
  private unlisten: (() => void) | undefined;
  private wakePending = false;

  constructor(
    private readonly config: Config,
    private readonly projections: Projection[],
    private readonly eventStore: EventStore,
    private readonly logger: Logger,
  ) {}

  start(onProgress: ProgressListener) {
    if (this.eventStore instanceof EmbeddedEventStore) {
      this.unlisten = this.eventStore.onAppended(() => {
        // One wake-up per turn of the loop is enough: the worker reads everything new when it wakes.
        if (this.wakePending || !this.worker) return;
        this.wakePending = true;
        setImmediate(() => {
          this.wakePending = false;
          this.worker?.postMessage({ type: 'appended' } satisfies ToWorker);
        });
      });
    }
    this.spawn(onProgress, 100);
  }

  private spawn(onProgress: ProgressListener, delay: number) {
    const ext = path.extname(__filename);
    const input: WorkerInput = { config: this.config, names: this.projections.map((p) => p.name) };
    const worker = new Worker(path.join(__dirname, `projection-thread${ext}`), {
      workerData: input,
      // Running from the TypeScript sources (tests, dev): the thread needs the same transpile-on-require hook.
      execArgv: ext === '.ts' ? ['--require', path.resolve(__dirname, '../../test/support/ts-register.js')] : [],
    });
    this.worker = worker;
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'progress') onProgress(message.name, BigInt(message.position), message.caughtUp);
    });
    worker.on('error', (error) => this.logger.error('projection thread failed', { error: String(error) }));
    worker.on('exit', (code) => {
      if (this.stopping) return;
      this.logger.error('projection thread exited; starting it again from its checkpoints', { code });
      setTimeout(() => !this.stopping && this.spawn(onProgress, Math.min(delay * 2, 10_000)), delay).unref();
    });
  }

  async stop() {
    this.stopping = true;
    this.unlisten?.();
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop' } satisfies ToWorker);
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}
