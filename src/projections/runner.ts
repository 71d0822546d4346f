import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription, SubscriptionItem } from '../eventstore/port';
import { categoryOf } from '../eventstore/port';
import type { Doc, DocumentChange, ReadStore } from '../readstore/port';
import { applyEvent, documentKey, DocumentKey, Projection } from '../../projections/projection';
import type { Logger } from '../logger';
import { upcast } from '../commands/upcasting';

const BATCH = 1000;
/** How long a partial batch waits for more events before it is written (live events arrive one at a time). */
const LINGER_MS = 5;

export type RunOptions = {
  /** Physical collection names: the live ones, or `<name>__rebuild` while a rebuild fills new ones. */
  collectionName?: (logical: string) => string;
  checkpointName?: string;
  /** After each committed batch: the position reached and how many events the batch held. */
  onProgress?: (position: bigint, events: number) => void;
  /** Stop once the subscription reports it reached the head (rebuilds). */
  untilCaughtUp?: boolean;
};

export const checkpointName = (p: Projection) => `${p.name}:v${p.version}`;

export type ProgressListener = (name: string, position: bigint, caughtUp: boolean) => void;

/** Projections run by another runner (a worker thread), reporting their progress back. */
export interface OffloadedProjections {
  start(onProgress: ProgressListener): void;
  stop(): Promise<void>;
}

/**
 * Runs every projection as its own catch-up subscription from its own checkpoint. Documents and checkpoint of a
 * batch commit together, and applyEvent skips what a document already saw, so a crash between the two, or a
 * replay, never double-applies an event.
 */
export class ProjectionRunner {
  private readonly positions = new Map<string, bigint>();
  private readonly caughtUp = new Set<string>();
  private readonly progress = new EventEmitter();
  private readonly subscriptions = new Set<Subscription>();
  private readonly loops: Promise<void>[] = [];
  private stopped = false;
  private offloaded: OffloadedProjections | undefined;

  /**
   * `offload`, when given, runs the async read models (ingestion's) elsewhere, on another thread: catching up on a
   * large import then uses the second core and never delays an acknowledgement or a management answer here.
   */
  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
    private readonly projections: Projection[],
    private readonly logger: Logger,
    private readonly offload?: (projections: Projection[]) => OffloadedProjections,
  ) {
    this.progress.setMaxListeners(0);
  }

  async start() {
    for (const p of this.projections) {
      for (const [collection, indexes] of Object.entries(p.collections)) await this.readStore.ensureIndexes(collection, indexes);
      this.positions.set(p.name, (await this.readStore.getCheckpoint(checkpointName(p))) ?? 0n);
    }
    const elsewhere = this.offload ? this.projections.filter((p) => p.lag === 'async') : [];
    for (const p of this.projections) if (!elsewhere.includes(p)) this.loops.push(this.keepRunning(p));
    if (elsewhere.length && this.offload) {
      this.offloaded = this.offload(elsewhere);
      this.offloaded.start((name, position, caughtUp) => {
        const p = this.projections.find((x) => x.name === name);
        if (!p) return;
        if (caughtUp) this.caughtUp.add(name);
        this.advance(p, position);
      });
    }
  }

  /** Every batch any projection commits, and whether it reached the head (what an offloaded runner reports). */
  watch(listener: ProgressListener) {
    this.progress.on('batch', listener);
  }

  /** True once every projection has reached the head of the log at least once since start. */
  isCaughtUp() {
    return this.projections.every((p) => this.caughtUp.has(p.name));
  }

  /**
   * Resolves once every awaited projection that follows `stream` has processed `position` (read your writes).
   * Bounded: a projection that falls behind delays an answer by at most `timeoutMs`, never fails it.
   */
  async waitFor(stream: string, position: bigint, timeoutMs = 5000): Promise<boolean> {
    const category = categoryOf(stream);
    const relevant = this.projections.filter((p) => p.lag === 'awaited' && p.categories.includes(category));
    const done = () => relevant.every((p) => (this.positions.get(p.name) ?? 0n) >= position);
    if (done()) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => finish(false), timeoutMs);
      const check = () => done() && finish(true);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.progress.off('progress', check);
        resolve(ok);
      };
      this.progress.on('progress', check);
    });
  }

  async stop() {
    this.stopped = true;
    await this.offloaded?.stop();
    await Promise.all([...this.subscriptions].map((s) => s.unsubscribe()));
    await Promise.allSettled(this.loops);
  }

  private async keepRunning(p: Projection) {
    let delay = 100;
    while (!this.stopped) {
      try {
        await this.run(p, { onProgress: (position) => this.advance(p, position) });
        delay = 100;
      } catch (error) {
        if (this.stopped) return;
        this.logger.error('projection failed; resubscribing from its checkpoint', { projection: p.name, error: String(error) });
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 10_000);
      }
    }
  }

  private advance(p: Projection, position: bigint, caughtUp = this.caughtUp.has(p.name)) {
    this.positions.set(p.name, position);
    this.progress.emit('progress');
    this.progress.emit('batch', p.name, position, caughtUp);
  }

  /** One subscription's worth of work; also what a rebuild runs, into other collections and another checkpoint. */
  async run(p: Projection, options: RunOptions = {}) {
    const name = options.checkpointName ?? checkpointName(p);
    const collection = options.collectionName ?? ((c: string) => c);
    const start = (await this.readStore.getCheckpoint(name)) ?? 0n;
    const subscription = this.eventStore.subscribeToAll({ after: start, filter: { categories: p.categories } });
    this.subscriptions.add(subscription);
    const iterator = subscription[Symbol.asyncIterator]();
    let buffer: RecordedEvent[] = [];
    const flush = async (position: bigint) => {
      const count = buffer.length;
      await this.applyBatch(p, buffer, position, name, collection);
      buffer = [];
      options.onProgress?.(position, count);
    };
    try {
      let pending = iterator.next();
      while (!this.stopped) {
        const next = buffer.length ? await raceLinger(pending) : await pending;
        if (next === 'linger') {
          await flush(buffer[buffer.length - 1].position);
          continue;
        }
        if (next.done) return;
        pending = iterator.next();
        const item: SubscriptionItem = next.value;
        if (item.kind === 'event') {
          buffer.push(upcast(item.event));
          if (buffer.length >= BATCH) await flush(item.event.position);
        } else {
          if (item.caughtUp) this.caughtUp.add(p.name);
          await flush(item.position);
          if (item.caughtUp && options.untilCaughtUp) return;
        }
      }
    } finally {
      this.subscriptions.delete(subscription);
      await subscription.unsubscribe();
    }
  }

  private async applyBatch(p: Projection, events: RecordedEvent[], position: bigint, name: string, collection: (c: string) => string) {
    const docs = new Map<string, Doc | null>();
    const keys = new Map<string, DocumentKey>();
    for (const event of events) for (const key of p.keys(event)) keys.set(documentKey(key), key);
    const byCollection = new Map<string, DocumentKey[]>();
    for (const key of keys.values()) byCollection.set(key.collection, [...(byCollection.get(key.collection) ?? []), key]);
    for (const [logical, list] of byCollection) {
      for (const key of list) docs.set(documentKey(key), null);
      const found = await this.readStore.getMany(collection(logical), list.map((k) => k.id));
      for (const doc of found) docs.set(documentKey({ collection: logical, id: doc._id }), doc);
    }
    const dirty = new Set<string>();
    for (const event of events) for (const k of applyEvent(p, event, docs)) dirty.add(k);
    const changes: DocumentChange[] = [...dirty].map((k) => {
      const key = keys.get(k)!;
      const doc = docs.get(k);
      return doc ? { collection: collection(key.collection), op: 'put', doc } : { collection: collection(key.collection), op: 'delete', id: key.id };
    });
    const previous = await this.readStore.getCheckpoint(name);
    if (changes.length === 0 && previous !== null && previous >= position) return;
    await this.readStore.commit(changes, { name, position });
  }
}

function raceLinger<T>(pending: Promise<T>): Promise<T | 'linger'> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    pending.finally(() => clearTimeout(timer)),
    new Promise<'linger'>((resolve) => (timer = setTimeout(() => resolve('linger'), LINGER_MS))),
  ]);
}
