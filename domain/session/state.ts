import type { SessionEvent } from './events';

export type SessionState = { status: 'none' } | { status: 'active' | 'ended'; id: string; userId: number };

export const initialState = (): SessionState => ({ status: 'none' });

export function evolve(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return { status: 'active', id: event.data.id, userId: event.data.userId };
    case 'SessionEnded':
      return state.status === 'none' ? state : { ...state, status: 'ended' };
  }
}
