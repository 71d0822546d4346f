import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription, SubscriptionItem } from '../eventstore/port';
import { categoryOf } from '../eventstore/port';
import type { Doc, DocumentChange, ReadStore } from '../readstore/port';
import { applyEvent, checkpointName, documentKey, DocumentKey, Projection } from '../../projections/projection';
import { rebuildProjection } from './rebuild';
import type { Logger } from '../logger';
import { upcast } from '../commands/upcasting';

/** Events per committed batch once a subscription is live. */
const BATCH = 1000;
/** Events per batch while a subscription is still behind the head: fewer commits and lookups per event. */
const CATCH_UP_BATCH = 5000;
/** How long a partial batch waits for more events before it is written (live events arrive one at a time). */
const LINGER_MS = 5;
/**
 * A projection further than this (in log positions) behind the others that follow the same streams first catches
 * up on a subscription of its own, so the others stay live meanwhile; then it joins theirs. (EventStoreDB's
 * positions are byte offsets, so there the gap is a shorter stretch of events; any gap works, this one only decides
 * when re-reading beats a second subscription.)
 */
const JOIN_GAP = 20_000n;
/**
 * A batch that changed no document moves the checkpoint in memory only, and on disk once it is this far (in log
 * positions) past the stored one: a read model that does not follow ingestion's streams would otherwise write a
 * checkpoint for every ingested batch. Restarting from a slightly older checkpoint only re-reads events it skips.
 */
const IDLE_CHECKPOINT_GAP = 100_000n;

export type RunOptions = {
  /** Physical collection names: the live ones, or `<name>__rebuild` while a rebuild fills new ones. */
  collectionName?: (logical: string) => string;
  checkpointName?: string;
  /** After each committed batch: the position reached and how many events the batch held. */
  onProgress?: (position: bigint, events: number) => void;
  /** Stop once the subscription reports it reached the head (rebuilds). */
  untilCaughtUp?: boolean;
};

export { checkpointName };

export type ProgressListener = (name: string, position: bigint, caughtUp: boolean) => void;

/** Projections run by another runner (a worker thread), reporting their progress back. */
export interface OffloadedProjections {
  start(onProgress: ProgressListener): void;
  stop(): Promise<void>;
}

/** One projection on a shared subscription: where it writes, and how far its checkpoint is. */
type Follower = {
  projection: Projection;
  checkpoint: string;
  collection: (logical: string) => string;
  at: bigint;
  /** The checkpoint as stored (`at` may be ahead of it, see IDLE_CHECKPOINT_GAP). */
  saved: bigint;
  onProgress: (position: bigint, events: number) => void;
  onCaughtUp: () => void;
};

/**
 * Runs the projections from their checkpoints. Projections that follow the same stream categories share one
 * catch-up subscription, so each event is read and decoded once; each still commits its documents together with
 * its own checkpoint, batch by batch, and applyEvent skips what a document already saw, so a crash between two
 * commits, or a replay, never double-applies an event.
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
    const elsewhere = this.offload ? this.projections.filter((p) => p.lag === 'async') : [];
    for (const p of this.projections) {
      for (const [collection, indexes] of Object.entries(p.collections)) await this.readStore.ensureIndexes(collection, indexes);
      if (!elsewhere.includes(p)) await this.rebuildIfNewVersion(p);
      this.positions.set(p.name, (await this.readStore.getCheckpoint(checkpointName(p))) ?? 0n);
    }
    const groups = new Map<string, Projection[]>();
    for (const p of this.projections) {
      if (elsewhere.includes(p)) continue;
      const key = [...p.categories].sort().join('\u0000');
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    for (const group of groups.values()) this.loops.push(this.keepRunning(group));
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

  /**
   * Documents but no checkpoint for this version: the projection's version was bumped (its document shape changed)
   * or its checkpoint was lost. Replaying into the old documents would be skipped by their replay guard, so the new
   * version is built beside them from position zero and swapped in before the projection goes live.
   */
  private async rebuildIfNewVersion(p: Projection) {
    if ((await this.readStore.getCheckpoint(checkpointName(p))) !== null) return;
    let documents = 0;
    for (const collection of Object.keys(p.collections)) documents += await this.readStore.count(collection, {});
    if (documents === 0) return;
    this.logger.info('read model has no checkpoint for its version: rebuilding it from the log', { projection: p.name, version: p.version });
    const { events } = await rebuildProjection({ eventStore: this.eventStore, readStore: this.readStore, projections: this }, p, { swap: true, fresh: true });
    this.logger.info('read model rebuilt', { projection: p.name, version: p.version, events });
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

  private async keepRunning(group: Projection[]) {
    let delay = 100;
    while (!this.stopped) {
      try {
        await this.runGroup(group);
        delay = 100;
      } catch (error) {
        if (this.stopped) return;
        this.logger.error('projection failed; resubscribing from its checkpoint', { projections: group.map((p) => p.name), error: String(error) });
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

  private liveFollower(p: Projection): Follower {
    return {
      projection: p,
      checkpoint: checkpointName(p),
      collection: (c) => c,
      at: 0n,
      saved: 0n,
      onProgress: (position) => this.advance(p, position),
      onCaughtUp: () => this.caughtUp.add(p.name),
    };
  }

  /**
   * The projections of a group on one subscription, except those far behind the rest: each of those catches up
   * from its own checkpoint on its own subscription, then the shared one starts again with it on board.
   */
  private async runGroup(group: Projection[]) {
    const followers = group.map((p) => this.liveFollower(p));
    for (const f of followers) f.at = f.saved = (await this.readStore.getCheckpoint(f.checkpoint)) ?? 0n;
    const lead = followers.reduce((max, f) => (f.at > max ? f.at : max), 0n);
    let joined = followers.filter((f) => lead - f.at <= JOIN_GAP);
    const behind = followers.filter((f) => !joined.includes(f));
    const ready: Follower[] = [];
    let failure: { error: unknown } | undefined;
    let halt!: () => void;
    const halted = new Promise<void>((resolve) => (halt = resolve));
    let wake!: () => void;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    const solo = behind.map((f) =>
      this.follow([f], { untilCaughtUp: true, interrupt: halted }).then(
        () => {
          ready.push(f);
          wake();
        },
        (error) => {
          failure ??= { error };
          wake();
        },
      ),
    );
    try {
      while (!this.stopped) {
        await this.follow(joined, { interrupt: woken });
        if (failure) throw failure.error;
        if (!ready.length) return;
        joined = [...joined, ...ready.splice(0)];
        woken = new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      halt();
      await Promise.allSettled(solo);
    }
  }

  /** One projection's subscription, into the given collections and checkpoint: what a rebuild runs. */
  async run(p: Projection, options: RunOptions = {}) {
    const stored = (await this.readStore.getCheckpoint(options.checkpointName ?? checkpointName(p))) ?? 0n;
    const follower: Follower = {
      projection: p,
      checkpoint: options.checkpointName ?? checkpointName(p),
      collection: options.collectionName ?? ((c) => c),
      at: stored,
      saved: stored,
      onProgress: (position, events) => options.onProgress?.(position, events),
      onCaughtUp: () => undefined,
    };
    await this.follow([follower], { untilCaughtUp: options.untilCaughtUp });
    // A rebuild hands its checkpoint to the live read model: store exactly where it ended.
    if (follower.at > follower.saved) await this.readStore.commit([], { name: follower.checkpoint, position: follower.at });
  }

  /**
   * Reads the log once for every follower, from the lowest of their checkpoints; each gets the events past its own.
   * Returns when the subscription ends, when `interrupt` settles (after writing what it holds) or, with
   * `untilCaughtUp`, once the head is reached.
   */
  private async follow(followers: Follower[], options: { untilCaughtUp?: boolean; interrupt?: Promise<void> }) {
    const start = followers.reduce((min, f) => (f.at < min ? f.at : min), followers[0].at);
    const subscription = this.eventStore.subscribeToAll({ after: start, filter: { categories: followers[0].projection.categories } });
    this.subscriptions.add(subscription);
    const iterator = subscription[Symbol.asyncIterator]();
    // Interrupting ends the subscription: it delivers what it holds, then the loop writes it and returns. (Racing
    // every item against a promise that lives as long as the loop would keep each item reachable from it.)
    let interrupted = false;
    let finished = false;
    options.interrupt
      ?.then(() => {
        if (finished) return;
        interrupted = true;
        return subscription.unsubscribe();
      })
      .catch((error) => this.logger.warn('ending a projection subscription failed', { error: String(error) }));
    let buffer: RecordedEvent[] = [];
    let reached = start;
    let written = start;
    // Behind the head, batches grow to CATCH_UP_BATCH; once the subscription reports the head, BATCH.
    let live = false;
    // A partial batch is written once no event came for LINGER_MS: one timer, re-armed per event.
    let fire: (value: 'linger') => void = () => undefined;
    let idle: Promise<'linger'> | undefined;
    const timer = setTimeout(() => fire('linger'), LINGER_MS);
    /** Commits what each follower has not seen yet; `report` also tells the ones that had nothing new. */
    const flush = async (report = false) => {
      const events = buffer;
      buffer = [];
      idle = undefined;
      fire = () => undefined;
      for (const f of followers) {
        if (reached <= f.at) {
          if (report) f.onProgress(f.at, 0);
          continue;
        }
        const mine = events.length && events[0].position <= f.at ? events.filter((e) => e.position > f.at) : events;
        await this.applyBatch(f, mine, reached);
        f.at = reached;
        f.onProgress(reached, mine.length);
      }
      written = reached;
    };
    try {
      let pending = iterator.next();
      while (!this.stopped) {
        let next: IteratorResult<SubscriptionItem> | 'linger';
        if (reached > written) {
          idle ??= new Promise<'linger'>((resolve) => (fire = resolve));
          timer.refresh();
          next = await Promise.race([pending, idle]);
        } else next = await pending;
        if (next === 'linger') {
          await flush();
          continue;
        }
        if (next.done) {
          if (interrupted && reached > written) await flush();
          return;
        }
        pending = iterator.next();
        const item = next.value;
        if (item.kind === 'event') {
          buffer.push(upcast(item.event));
          if (item.event.position > reached) reached = item.event.position;
          if (buffer.length >= (live ? BATCH : CATCH_UP_BATCH)) await flush();
        } else {
          if (item.position > reached) reached = item.position;
          live = item.caughtUp;
          if (!item.caughtUp) continue;
          for (const f of followers) f.onCaughtUp();
          await flush(true);
          if (options.untilCaughtUp) return;
        }
      }
    } finally {
      finished = true;
      clearTimeout(timer);
      this.subscriptions.delete(subscription);
      await subscription.unsubscribe();
    }
  }

  private async applyBatch(f: Follower, events: RecordedEvent[], position: bigint) {
    const p = f.projection;
    const docs = new Map<string, Doc | null>();
    const keys = new Map<string, DocumentKey>();
    for (const event of events) for (const key of p.keys(event)) keys.set(documentKey(key), key);
    const byCollection = new Map<string, DocumentKey[]>();
    for (const key of keys.values()) {
      const list = byCollection.get(key.collection);
      if (list) list.push(key);
      else byCollection.set(key.collection, [key]);
    }
    for (const [logical, list] of byCollection) {
      for (const key of list) docs.set(documentKey(key), null);
      const found = await this.readStore.getMany(f.collection(logical), list.map((k) => k.id));
      for (const doc of found) docs.set(documentKey({ collection: logical, id: doc._id }), doc);
    }
    const dirty = new Set<string>();
    for (const event of events) for (const k of applyEvent(p, event, docs)) dirty.add(k);
    const changes: DocumentChange[] = [...dirty].map((k) => {
      const key = keys.get(k)!;
      const doc = docs.get(k);
      const collection = f.collection(key.collection);
      return doc ? { collection, op: 'put', doc } : { collection, op: 'delete', id: key.id };
    });
    if (changes.length === 0 && position - f.saved < IDLE_CHECKPOINT_GAP) return;
    await this.readStore.commit(changes, { name: f.checkpoint, position });
    f.saved = position;
  }
}
