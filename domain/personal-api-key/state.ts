import type { PersonalApiKeyEvent } from './events';

export type PersonalApiKeyState = { status: 'none' } | { status: 'active' | 'deleted'; id: string; userId: number };

export const initialState = (): PersonalApiKeyState => ({ status: 'none' });

export function evolve(state: PersonalApiKeyState, event: PersonalApiKeyEvent): PersonalApiKeyState {
  switch (event.type) {
    case 'PersonalApiKeyCreated':
      return { status: 'active', id: event.data.id, userId: event.data.userId };
    case 'PersonalApiKeyDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
  }
}
