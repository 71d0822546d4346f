import type { EventStore, NewEvent } from '../eventstore/port';
import { StreamNotFoundError, WrongExpectedVersionError } from '../eventstore/port';
import type { ReadStore } from '../readstore/port';
import { currentSchemaVersion } from '../commands/upcasting';
import { INGESTED_EVENT_TYPE, IngestedEventData, ingestionStream } from '../../domain/ingestion/ingested-event';

/** EventStoreDB refuses appends over 1 MiB (MaxAppendSize): keep each append, with its framing, well under it. */
export const MAX_APPEND_BYTES = 1024 * 1024 - 64 * 1024;
/** Per-event framing beyond data and metadata (id, type, content type) in EventStoreDB's gRPC append. */
const EVENT_OVERHEAD_BYTES = 200;
/** The largest event that fits one append on its own (the reference's Kafka limit is about 1 MB too). */
export const MAX_EVENT_BYTES = MAX_APPEND_BYTES - EVENT_OVERHEAD_BYTES;

export type SizedEvent = { event: NewEvent; bytes: number };

/** Stamped on every stored event, as the command handler does for domain events; one object per request. */
export const ingestionMetadata = () => ({ schemaVersion: currentSchemaVersion(INGESTED_EVENT_TYPE) });

/** The stored form of an ingested event, with its serialized size for splitting. */
export function toNewEvent(data: IngestedEventData, metadata = ingestionMetadata()): SizedEvent {
  const bytes = Buffer.byteLength(JSON.stringify(data)) + JSON.stringify(metadata).length + EVENT_OVERHEAD_BYTES;
  return { event: { id: data.uuid, type: INGESTED_EVENT_TYPE, data, metadata }, bytes };
}

/** Splits events, in order, into appends of at most MAX_APPEND_BYTES each. */
export function splitIntoAppends(events: SizedEvent[], maxBytes = MAX_APPEND_BYTES): NewEvent[][] {
  const appends: NewEvent[][] = [];
  let current: NewEvent[] = [];
  let size = 0;
  for (const { event, bytes } of events) {
    if (current.length > 0 && size + bytes > maxBytes) {
      appends.push(current);
      current = [];
      size = 0;
    }
    current.push(event);
    size += bytes;
  }
  if (current.length) appends.push(current);
  return appends;
}

/** Writes a project's ingested events to the log so that each uuid is stored once, whatever is resent. */
export interface IngestionWriter {
  /** Resolves once every event is durable in the log. */
  write(projectId: number, appends: NewEvent[][]): Promise<void>;
}

/**
 * The embedded store skips, inside its append transaction, every event whose id is already in the stream, for
 * any age: that alone makes a resend a no-op, so appends go straight through.
 */
export class DirectIngestionWriter implements IngestionWriter {
  constructor(private readonly eventStore: EventStore) {}

  async write(projectId: number, appends: NewEvent[][]) {
    const stream = ingestionStream(projectId);
    for (const events of appends) await this.eventStore.appendToStream(stream, events, { expectedRevision: 'any' });
  }
}

const DEDUPE_COLLECTION = 'ingestion_uuids';
const headId = (projectId: number) => `${projectId}:_head`;
const uuidId = (projectId: number, uuid: string) => `${projectId}:${uuid}`;
const TAIL_PAGE = 5000;

/**
 * For EventStoreDB, whose idempotency only covers a recent, identical append (its id cache), dedupe needs an
 * index of its own. The log stays the truth; the index is a cache of it that is always caught up before use:
 *
 * - the read store holds one document per stored uuid and a `_head` document: the stream revision up to which
 *   every uuid has been indexed;
 * - before an append, the writer reads the stream's tail after `_head` (events a crashed writer or another
 *   process appended but did not index), indexes those, and drops the uuids already present;
 * - it then appends with the exact expected revision it has read up to, so nothing can slip in between the
 *   check and the write: a concurrent writer makes the append fail, and the writer re-reads the tail and
 *   tries again;
 * - after the append it indexes the new uuids. A crash before that is harmless: the next writer finds them
 *   in the tail.
 *
 * Writers of one project are serialized in-process, so conflicts only arise between processes.
 */
export class IndexedIngestionWriter implements IngestionWriter {
  private readonly locks = new Map<number, Promise<void>>();

  constructor(
    private readonly eventStore: EventStore,
    private readonly readStore: ReadStore,
  ) {}

  write(projectId: number, appends: NewEvent[][]): Promise<void> {
    const previous = this.locks.get(projectId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.writeLocked(projectId, appends));
    const tail = run.catch(() => undefined);
    this.locks.set(projectId, tail);
    void tail.then(() => this.locks.get(projectId) === tail && this.locks.delete(projectId));
    return run;
  }

  private async writeLocked(projectId: number, appends: NewEvent[][]) {
    const stream = ingestionStream(projectId);
    for (const events of appends) {
      for (let attempt = 0; ; attempt++) {
        const revision = await this.catchUp(projectId, stream);
        const found = await this.readStore.getMany(DEDUPE_COLLECTION, events.map((e) => uuidId(projectId, e.id!)));
        const known = new Set(found.map((d) => String(d._id)));
        const fresh = events.filter((e) => !known.has(uuidId(projectId, e.id!)));
        if (fresh.length === 0) break;
        try {
          const result = await this.eventStore.appendToStream(stream, fresh, { expectedRevision: revision < 0n ? 'no_stream' : revision });
          await this.index(projectId, fresh.map((e) => e.id!), result.nextExpectedRevision);
          break;
        } catch (error) {
          if (!(error instanceof WrongExpectedVersionError) || attempt >= 20) throw error;
        }
      }
    }
  }

  /** Indexes what the log holds beyond the index's head; returns the stream's revision (-1n: no stream). */
  private async catchUp(projectId: number, stream: string): Promise<bigint> {
    const head = await this.readStore.get(DEDUPE_COLLECTION, headId(projectId));
    let revision = head ? BigInt(head.revision) : -1n;
    for (;;) {
      let tail;
      try {
        tail = await this.eventStore.readStream(stream, { fromRevision: revision + 1n, maxCount: TAIL_PAGE });
      } catch (error) {
        if (error instanceof StreamNotFoundError) return revision;
        throw error;
      }
      if (tail.length === 0) return revision;
      revision = tail[tail.length - 1].revision;
      await this.index(projectId, tail.map((e) => e.id), revision);
      if (tail.length < TAIL_PAGE) return revision;
    }
  }

  private async index(projectId: number, uuids: string[], revision: bigint) {
    await this.readStore.commit([
      ...uuids.map((uuid) => ({ collection: DEDUPE_COLLECTION, op: 'put' as const, doc: { _id: uuidId(projectId, uuid) } })),
      { collection: DEDUPE_COLLECTION, op: 'put', doc: { _id: headId(projectId), revision: revision.toString() } },
    ]);
  }
}
