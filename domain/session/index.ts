import type { Decider } from '../decider';
import type { SessionCommand } from './commands';
import { decide } from './decide';
import type { SessionEvent } from './events';
import { evolve, initialState, SessionState } from './state';

/** A browser login: started by POST /api/login/ (or signup), ended by logout. */
export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = { decide, evolve, initialState };
export const sessionStream = (id: string) => `login_session-${id}`;
export type { SessionCommand, SessionEvent, SessionState };
