import type { Command, Decider, Message } from '../../domain/decider';
import { DomainError } from '../../domain/errors';

/**
 * Emmett-style decider specification: given(events).when(command).then(events) | thenThrows(...).
 * Events in `then` are compared by type and data; metadata is the handler's business.
 */
export function DeciderSpecification<S, C extends Command, E extends Message>(decider: Decider<S, C, E>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: Array<Pick<E, 'type' | 'data'>>) {
              const actual = run().map((e) => ({ type: e.type, data: e.data }));
              expect(actual).toEqual(expected.map((e) => ({ type: e.type, data: e.data })));
            },
            thenNothingHappened() {
              expect(run()).toEqual([]);
            },
            thenThrows(expected: Partial<Pick<DomainError, 'kind' | 'code' | 'detail' | 'attr'>>) {
              let error: unknown;
              try {
                run();
              } catch (e) {
                error = e;
              }
              expect(error).toBeInstanceOf(DomainError);
              expect(error).toMatchObject(expected);
            },
          };
        },
      };
    },
  };
}

export const meta = (now = '2026-01-01T00:00:00.000Z', userId = 1) => ({ now, userId });
