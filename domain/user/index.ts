import type { Decider } from '../decider';
import type { UserCommand } from './commands';
import { decide } from './decide';
import type { UserEvent } from './events';
import { evolve, initialState, UserState } from './state';

export const userDecider: Decider<UserState, UserCommand, UserEvent> = { decide, evolve, initialState };
export const userStream = (id: number) => `user-${id}`;
export type { UserCommand, UserEvent, UserState };
