/**
 * The event log, with EventStoreDB's semantics so that the embedded adapter and the EventStoreDB adapter are
 * interchangeable: streams with 0-based revisions, expected-revision checks, idempotent re-appends by event id,
 * and one global, strictly increasing position (EventStoreDB's commit position).
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export type NewEvent = {
  /** UUID; re-appending an event with an id already stored in the stream is a no-op. */
  id?: string;
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
};

export type RecordedEvent = {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  position: bigint;
  data: any;
  metadata: Record<string, any>;
  created: Date;
};

export type AppendResult = {
  /** Revision of the last event of the stream after the append. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written (or already present, for an idempotent re-append). */
  position: bigint;
};

export type ReadStreamOptions = { fromRevision?: bigint; maxCount?: number; direction?: 'forwards' | 'backwards' };

/** Which events a reader of the whole log wants: by stream category (the part of the name before '-') or type. */
export type AllFilter = { categories: readonly string[] } | { eventTypes: readonly string[] };

export type ReadAllOptions = { after?: bigint; maxCount: number; filter?: AllFilter };

export type SubscriptionItem =
  | { kind: 'event'; event: RecordedEvent }
  /** Everything up to `position` has been delivered; `caughtUp` once the subscription reached the head. */
  | { kind: 'checkpoint'; position: bigint; caughtUp: boolean };

export interface Subscription extends AsyncIterable<SubscriptionItem> {
  unsubscribe(): Promise<void>;
}

export interface EventStore {
  appendToStream(stream: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult>;
  /** Throws StreamNotFoundError when the stream has no events. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Reads the whole log forwards from an exclusive position. */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up subscription from an exclusive position, then live. */
  subscribeToAll(options: { after?: bigint; filter?: AllFilter }): Subscription;
  /** Position of the newest event, 0n for an empty log. */
  headPosition(): Promise<bigint>;
  close(): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamName: string,
    readonly expectedVersion: ExpectedRevision,
    readonly actualVersion: bigint | 'no_stream',
  ) {
    super(`Wrong expected version on ${streamName}: expected ${String(expectedVersion)}, actual ${String(actualVersion)}`);
  }
}

export class StreamNotFoundError extends Error {
  constructor(readonly streamName: string) {
    super(`Stream ${streamName} not found`);
  }
}

export const categoryOf = (stream: string) => {
  const dash = stream.indexOf('-');
  return dash < 0 ? stream : stream.slice(0, dash);
};

/** Checks an expected revision against the current one (-1n when the stream does not exist). */
export function expectedRevisionMatches(expected: ExpectedRevision, current: bigint): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === -1n;
  if (expected === 'stream_exists') return current >= 0n;
  return expected === current;
}
