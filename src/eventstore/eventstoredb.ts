import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  eventTypeFilter,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  streamNameFilter,
  WrongExpectedVersionError as EsdbWrongExpectedVersion,
  StreamNotFoundError as EsdbStreamNotFound,
} from '@eventstore/db-client';
import type { AllStreamResolvedEvent, ResolvedEvent } from '@eventstore/db-client';
import {
  AllFilter,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamNotFoundError,
  Subscription,
  SubscriptionItem,
  WrongExpectedVersionError,
} from './port';

/** Subscriptions pause the gRPC stream above this many undelivered items (the client has no backpressure of its own). */
const HIGH_WATER = 4096;

/** The production event log. A thin mapping onto @eventstore/db-client; the contract suite holds it to the port. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async appendToStream(stream: string, events: NewEvent[], options: { expectedRevision?: ExpectedRevision } = {}) {
    const expected = options.expectedRevision ?? 'any';
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: (e.data ?? {}) as any, metadata: e.metadata ?? {} })),
        { expectedRevision: expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected === 'stream_exists' ? STREAM_EXISTS : expected },
      );
      return { nextExpectedRevision: result.nextExpectedRevision, position: result.position?.commit ?? 0n };
    } catch (error) {
      if (error instanceof EsdbWrongExpectedVersion) {
        const actual = error.actualVersion;
        throw new WrongExpectedVersionError(stream, expected, typeof actual === 'bigint' ? actual : 'no_stream');
      }
      throw error;
    }
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, {
        fromRevision: options.fromRevision ?? (backwards ? END : START),
        direction: backwards ? BACKWARDS : FORWARDS,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      })) {
        const event = toRecorded(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      if (error instanceof EsdbStreamNotFound) throw new StreamNotFoundError(stream);
      throw error;
    }
    return out;
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    // v6 reads of $all take no server-side filter: filter here, reading only as far as needed.
    const after = options.after ?? 0n;
    const out: RecordedEvent[] = [];
    const read = this.client.readAll({
      fromPosition: after === 0n ? START : { commit: after, prepare: after },
      direction: FORWARDS,
      maxCount: Number.MAX_SAFE_INTEGER,
    });
    for await (const resolved of read) {
      const event = toRecorded(resolved);
      if (!event || event.position <= after || !matches(event, options.filter)) continue;
      out.push(event);
      if (out.length >= options.maxCount) break;
    }
    return out;
  }

  subscribeToAll(options: { after?: bigint; filter?: AllFilter }): Subscription {
    const queue: SubscriptionItem[] = [];
    let failure: Error | undefined;
    let ended = false;
    let lastPosition = options.after ?? 0n;
    let notify: (() => void) | undefined;
    const push = (item: SubscriptionItem) => {
      queue.push(item);
      if (queue.length > HIGH_WATER) subscription.pause();
      notify?.();
    };
    const checkpointReached = (_: unknown, position: { commit: bigint }) => {
      push({ kind: 'checkpoint', position: position.commit, caughtUp: false });
    };
    const filter = !options.filter
      ? excludeSystemEvents({ checkpointReached })
      : 'categories' in options.filter
        ? streamNameFilter({ prefixes: options.filter.categories.map((c) => `${c}-`), checkpointReached })
        : eventTypeFilter({ regex: `^(${options.filter.eventTypes.map(escapeRegex).join('|')})$`, checkpointReached });
    const subscription = this.client.subscribeToAll({
      fromPosition: options.after ? { commit: options.after, prepare: options.after } : START,
      filter,
    });
    subscription.on('data', (resolved: AllStreamResolvedEvent) => {
      const event = toRecorded(resolved);
      if (!event) return;
      lastPosition = event.position;
      push({ kind: 'event', event });
    });
    subscription.on('caughtUp', () => push({ kind: 'checkpoint', position: lastPosition, caughtUp: true }));
    subscription.on('error', (error: Error) => {
      failure = error;
      notify?.();
    });
    subscription.on('end', () => {
      ended = true;
      notify?.();
    });
    return {
      unsubscribe: async () => {
        ended = true;
        await subscription.unsubscribe();
        notify?.();
      },
      async *[Symbol.asyncIterator]() {
        while (true) {
          const item = queue.shift();
          if (item) {
            if (queue.length < HIGH_WATER / 2 && subscription.isPaused()) subscription.resume();
            yield item;
            continue;
          }
          if (failure) throw failure;
          if (ended) return;
          await new Promise<void>((resolve) => (notify = resolve));
          notify = undefined;
        }
      },
    };
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) {
      return resolved.event?.position?.commit ?? 0n;
    }
    return 0n;
  }

  async close() {
    await this.client.dispose();
  }
}

function toRecorded(resolved: ResolvedEvent): RecordedEvent | undefined {
  const e = resolved.event;
  if (!e || e.type.startsWith('$') || !e.isJson) return undefined;
  return {
    streamId: e.streamId,
    id: e.id,
    type: e.type,
    revision: e.revision,
    position: e.position?.commit ?? 0n,
    data: e.data,
    metadata: (e.metadata ?? {}) as Record<string, unknown>,
    created: e.created,
  };
}

function matches(event: RecordedEvent, filter: AllFilter | undefined) {
  if (!filter) return true;
  if ('categories' in filter) return filter.categories.some((c) => event.streamId.startsWith(`${c}-`));
  return filter.eventTypes.includes(event.type);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
