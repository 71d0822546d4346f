import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  AllFilter,
  AppendResult,
  categoryOf,
  EventStore,
  ExpectedRevision,
  expectedRevisionMatches,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamNotFoundError,
  Subscription,
  SubscriptionItem,
  WrongExpectedVersionError,
} from './port';

type Row = {
  position: number;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
  created: string;
};

type PendingAppend = {
  stream: string;
  events: (NewEvent & { givenId: boolean; id: string })[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

/** Another process (the rebuild CLI, a second server) may append to the same file: poll at least this often. */
const CROSS_PROCESS_POLL_MS = 500;
const SUBSCRIPTION_PAGE = 2000;

/**
 * The default event log: one SQLite file in DATA_DIR. SQLite's single writer makes rowid order commit order,
 * so the rowid is the global position, and synchronous=FULL in WAL mode makes every acknowledged append
 * survive a kill -9 or a power cut.
 */
export class EmbeddedEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private closed = false;
  private readonly stmt: Record<string, Database.Statement>;
  private readonly prepared = new Map<string, Database.Statement>();
  private pending: PendingAppend[] = [];
  private flushScheduled = false;

  constructor(dataDir: string, file = 'events.db') {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(path.join(dataDir, file));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 10000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        stream TEXT NOT NULL,
        category TEXT NOT NULL,
        revision INTEGER NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        created TEXT NOT NULL,
        UNIQUE (stream, revision)
      );
      CREATE UNIQUE INDEX IF NOT EXISTS events_stream_id ON events (stream, id);
      CREATE INDEX IF NOT EXISTS events_category ON events (category, position);
      -- Readers follow categories (every projection does); a filter by event type scans from its position instead,
      -- which spares every ingested event one more index entry.
      DROP INDEX IF EXISTS events_type;
      CREATE TABLE IF NOT EXISTS streams (stream TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;
    `);
    this.appended.setMaxListeners(0);
    this.stmt = {
      streamRevision: this.db.prepare('SELECT revision FROM streams WHERE stream = ?'),
      eventInStream: this.db.prepare('SELECT position, revision FROM events WHERE stream = ? AND id = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (stream, category, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      setRevision: this.db.prepare(
        'INSERT INTO streams (stream, revision) VALUES (?, ?) ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision',
      ),
      head: this.db.prepare('SELECT COALESCE(MAX(position), 0) AS head FROM events'),
    };
  }

  /** One append inside the group's transaction; throws WrongExpectedVersionError for this append alone. */
  private appendOne({ stream, events, expected }: PendingAppend): AppendResult {
    const row = this.stmt.streamRevision.get(stream) as { revision: number } | undefined;
    const current = row ? BigInt(row.revision) : -1n;
    // An id the caller chose and that is already in the stream makes this a retry of an earlier append.
    const fresh = events.filter((e) => !e.givenId || !this.stmt.eventInStream.get(stream, e.id));
    if (fresh.length === 0) {
      const last = this.stmt.eventInStream.get(stream, events[events.length - 1].id) as { position: number };
      return { nextExpectedRevision: current, position: BigInt(last.position) };
    }
    if (!expectedRevisionMatches(expected, current)) {
      throw new WrongExpectedVersionError(stream, expected, current < 0n ? 'no_stream' : current);
    }
    const category = categoryOf(stream);
    const created = new Date().toISOString();
    let revision = Number(current);
    let position = 0;
    for (const e of fresh) {
      revision += 1;
      const info = this.stmt.insert.run(
        stream, category, revision, e.id, e.type, JSON.stringify(e.data ?? {}), JSON.stringify(e.metadata ?? {}), created,
      );
      position = Number(info.lastInsertRowid);
    }
    this.stmt.setRevision.run(stream, revision);
    return { nextExpectedRevision: BigInt(revision), position: BigInt(position) };
  }

  /**
   * Group commit: appends that arrive in the same turn of the event loop share one transaction, so one fsync makes
   * them all durable. Each keeps its own expected-revision check; a conflict fails that append only.
   */
  private flushAppends() {
    this.flushScheduled = false;
    const group = this.pending.splice(0);
    if (group.length === 0) return;
    let outcomes: ({ ok: AppendResult } | { error: unknown })[];
    try {
      outcomes = this.db.transaction(() =>
        group.map((item) => {
          try {
            return { ok: this.appendOne(item) };
          } catch (error) {
            if (error instanceof WrongExpectedVersionError) return { error };
            throw error;
          }
        }),
      )();
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    let head = 0n;
    outcomes.forEach((outcome, i) => {
      if ('ok' in outcome) {
        if (outcome.ok.position > head) head = outcome.ok.position;
        group[i].resolve(outcome.ok);
      } else group[i].reject(outcome.error);
    });
    if (head > 0n) this.appended.emit('appended', head);
  }

  private prepare(sql: string) {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  async appendToStream(stream: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}) {
    if (this.closed) throw new Error('event store is closed');
    if (events.length === 0) throw new Error('append needs at least one event');
    const prepared = events.map((e) => ({ ...e, givenId: e.id !== undefined, id: e.id ?? randomUUID() }));
    return new Promise<AppendResult>((resolve, reject) => {
      this.pending.push({ stream, events: prepared, expected: options.expectedRevision ?? 'any', resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flushAppends());
      }
    });
  }

  /** Called after every group commit with the new head: how another thread's readers learn of appends at once. */
  onAppended(listener: (position: bigint) => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  /** Wakes this instance's subscriptions: another connection (thread) appended to the same file. */
  notifyAppended() {
    this.appended.emit('appended', 0n);
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? BigInt(Number.MAX_SAFE_INTEGER) : 0n);
    const rows = this
      .prepare(
        `SELECT * FROM events WHERE stream = ? AND revision ${backwards ? '<=' : '>='} ? ORDER BY revision ${backwards ? 'DESC' : 'ASC'} LIMIT ?`,
      )
      .all(stream, Number(from), options.maxCount ?? -1) as Row[];
    if (rows.length === 0 && !this.stmt.streamRevision.get(stream)) throw new StreamNotFoundError(stream);
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.readAllSync(options.after ?? 0n, options.maxCount, options.filter, undefined);
  }

  private readAllSync(after: bigint, maxCount: number, filter: AllFilter | undefined, upTo: bigint | undefined) {
    const where: string[] = ['position > ?'];
    const params: unknown[] = [Number(after)];
    if (upTo !== undefined) {
      where.push('position <= ?');
      params.push(Number(upTo));
    }
    if (filter && 'categories' in filter) {
      where.push(`category IN (${filter.categories.map(() => '?').join(',') || "''"})`);
      params.push(...filter.categories);
    } else if (filter && 'eventTypes' in filter) {
      where.push(`type IN (${filter.eventTypes.map(() => '?').join(',') || "''"})`);
      params.push(...filter.eventTypes);
    }
    const rows = this
      .prepare(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY position LIMIT ?`)
      .all(...params, maxCount) as Row[];
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<bigint> {
    return BigInt((this.stmt.head.get() as { head: number }).head);
  }

  subscribeToAll(options: { after?: bigint; filter?: AllFilter }): Subscription {
    let active = true;
    let wake: (() => void) | undefined;
    const onAppend = () => wake?.();
    this.appended.on('appended', onAppend);
    const store = this;
    return {
      async unsubscribe() {
        active = false;
        store.appended.off('appended', onAppend);
        wake?.();
      },
      async *[Symbol.asyncIterator](): AsyncIterator<SubscriptionItem> {
        let after = options.after ?? 0n;
        while (active && !store.closed) {
          const head = await store.headPosition();
          const page = store.readAllSync(after, SUBSCRIPTION_PAGE, options.filter, head);
          for (const event of page) yield { kind: 'event', event };
          const full = page.length === SUBSCRIPTION_PAGE;
          const reached = full ? page[page.length - 1].position : head;
          if (reached > after || !full) yield { kind: 'checkpoint', position: reached, caughtUp: !full };
          after = reached;
          if (full) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CROSS_PROCESS_POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
            // An append may have landed between the head read and installing the wake-up.
            if (!active || store.closed || Number((store.stmt.head.get() as { head: number }).head) > Number(head)) wake();
          });
          wake = undefined;
        }
      },
    };
  }

  async close() {
    if (this.closed) return;
    this.flushAppends();
    this.closed = true;
    this.appended.emit('appended', 0n);
    this.db.close();
  }
}

function toRecorded(row: Row): RecordedEvent {
  return {
    streamId: row.stream,
    id: row.id,
    type: row.type,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    created: new Date(row.created),
  };
}
