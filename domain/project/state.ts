import type { ProjectEvent } from './events';

export type ProjectState = { status: 'none' } | { status: 'active'; id: number; organizationId: string; name: string; apiToken: string };

export const initialState = (): ProjectState => ({ status: 'none' });

export function evolve(state: ProjectState, event: ProjectEvent): ProjectState {
  switch (event.type) {
    case 'ProjectCreated':
      return { status: 'active', id: event.data.id, organizationId: event.data.organizationId, name: event.data.name, apiToken: event.data.apiToken };
    case 'ProjectUpdated':
      return state.status === 'active' && event.data.name !== undefined ? { ...state, name: event.data.name } : state;
    case 'ProjectTokenReset':
      return state.status === 'active' ? { ...state, apiToken: event.data.apiToken } : state;
  }
}
