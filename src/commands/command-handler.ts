import type { Command, Decider, Message } from '../../domain/decider';
import type { EventStore, RecordedEvent } from '../eventstore/port';
import { StreamNotFoundError, WrongExpectedVersionError } from '../eventstore/port';
import type { ProjectionRunner } from '../projections/runner';
import { currentSchemaVersion, upcast } from './upcasting';

export class PreconditionFailedError extends Error {
  constructor(readonly expected: bigint, readonly actual: bigint) {
    super(`If-Match revision ${expected} does not match the current revision ${actual}`);
  }
}

export class ConcurrencyConflictError extends Error {}

export type HandleOptions = {
  /** From If-Match: the revision the client last saw. A mismatch is a 412, never retried. */
  expectedRevision?: bigint;
};

export type Handled<State> = {
  state: State;
  /** Revision of the stream after the command (-1n: the stream still does not exist). */
  revision: bigint;
  events: Message[];
};

const MAX_ATTEMPTS = 12;

export async function loadStream(store: EventStore, stream: string): Promise<RecordedEvent[]> {
  try {
    return (await store.readStream(stream)).map(upcast);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}

export function fold<State, E extends Message>(decider: Pick<Decider<State, any, E>, 'evolve' | 'initialState'>, events: RecordedEvent[]) {
  return events.reduce<State>((state, e) => decider.evolve(state, { type: e.type, data: e.data, metadata: e.metadata } as E), decider.initialState());
}

/**
 * Load, fold, decide, append with the revision just read, and retry on a concurrent write: the one path every
 * command of every aggregate takes. The answer waits (bounded) until the read models have seen the new events.
 */
export class CommandHandler {
  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionRunner,
  ) {}

  async load<State, E extends Message>(decider: Pick<Decider<State, any, E>, 'evolve' | 'initialState'>, stream: string) {
    const events = await loadStream(this.store, stream);
    return { state: fold(decider, events), revision: BigInt(events.length) - 1n };
  }

  async handle<State, C extends Command, E extends Message>(
    decider: Decider<State, C, E>,
    stream: string,
    command: C,
    options: HandleOptions = {},
  ): Promise<Handled<State>> {
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await this.load(decider, stream);
      if (options.expectedRevision !== undefined && options.expectedRevision !== revision) {
        throw new PreconditionFailedError(options.expectedRevision, revision);
      }
      const events = decider.decide(command, state);
      if (events.length === 0) return { state, revision, events };
      try {
        const result = await this.store.appendToStream(
          stream,
          events.map((e) => ({
            type: e.type,
            data: e.data,
            metadata: { ...command.metadata, ...e.metadata, schemaVersion: currentSchemaVersion(e.type) },
          })),
          { expectedRevision: revision < 0n ? 'no_stream' : revision },
        );
        await this.projections.waitFor(stream, result.position);
        return { state: events.reduce(decider.evolve, state), revision: result.nextExpectedRevision, events };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (options.expectedRevision !== undefined) {
          throw new PreconditionFailedError(options.expectedRevision, typeof error.actualVersion === 'bigint' ? error.actualVersion : -1n);
        }
        if (attempt >= MAX_ATTEMPTS) throw new ConcurrencyConflictError(`too many concurrent changes to ${stream}`);
        // Jittered backoff spreads out writers that collided, so most succeed on the next try.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  }
}
