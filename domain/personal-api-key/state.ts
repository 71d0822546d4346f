import type { PersonalApiKeyEvent } from './events';

export type PersonalApiKeyState = { status: 'none' } | { status: 'active' | 'deleted'; id: string; userId: number; lastUsedAt: string | null };

export const initialState = (): PersonalApiKeyState => ({ status: 'none' });

export function evolve(state: PersonalApiKeyState, event: PersonalApiKeyEvent): PersonalApiKeyState {
  switch (event.type) {
    case 'PersonalApiKeyCreated':
      return { status: 'active', id: event.data.id, userId: event.data.userId, lastUsedAt: null };
    case 'PersonalApiKeyDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    case 'PersonalApiKeyUsed':
      return state.status === 'none' ? state : { ...state, lastUsedAt: event.data.at };
  }
}
