import type { Command, Decider, Message } from '../decider';
import { invalid } from '../errors';

/**
 * A value that must be unique across the installation (a verified domain's name) is held by one owner at a time,
 * through a stream of its own: the append's expected-revision check makes two simultaneous claims of the same value
 * race-free, which a look at a read model before writing cannot.
 */
export type ValueClaimed = Message<'ValueClaimed', { holder: string; at: string }>;
export type ValueReleased = Message<'ValueReleased', { holder: string; at: string }>;
export type UniqueValueEvent = ValueClaimed | ValueReleased;

/**
 * `goneHolder`: a holder the caller found no longer exists (deleted, or its creation never finished). Naming it,
 * rather than saying "the holder is gone", keeps a retried claim from displacing a holder that came in between.
 */
export type ClaimValue = Command<'ClaimValue', { holder: string; goneHolder: string | null; takenDetail: string; attr: string }>;
export type ReleaseValue = Command<'ReleaseValue', { holder: string }>;
export type UniqueValueCommand = ClaimValue | ReleaseValue;

export type UniqueValueState = { holder: string | null; claimedAt: string | null };

const initialState = (): UniqueValueState => ({ holder: null, claimedAt: null });

function evolve(state: UniqueValueState, event: UniqueValueEvent): UniqueValueState {
  switch (event.type) {
    case 'ValueClaimed':
      return { holder: event.data.holder, claimedAt: event.data.at };
    case 'ValueReleased':
      return state.holder === event.data.holder ? { holder: null, claimedAt: null } : state;
  }
}

function decide(command: UniqueValueCommand, state: UniqueValueState): UniqueValueEvent[] {
  const at = command.metadata.now;
  const { holder } = command.data;
  switch (command.type) {
    case 'ClaimValue':
      if (state.holder === holder) return [];
      if (state.holder === null) return [{ type: 'ValueClaimed', data: { holder, at } }];
      if (command.data.goneHolder !== state.holder) throw invalid(command.data.takenDetail, command.data.attr, 'unique');
      return [
        { type: 'ValueReleased', data: { holder: state.holder, at } },
        { type: 'ValueClaimed', data: { holder, at } },
      ];
    case 'ReleaseValue':
      return state.holder === holder ? [{ type: 'ValueReleased', data: { holder, at } }] : [];
  }
}

export const uniqueValueDecider: Decider<UniqueValueState, UniqueValueCommand, UniqueValueEvent> = { decide, evolve, initialState };
