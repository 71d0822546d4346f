import type { ProjectEvent } from './events';

export type ProjectState = { status: 'none' } | { status: 'active'; id: number; organizationId: string; name: string; apiToken: string };

export const initialState = (): ProjectState => ({ status: 'none' });

export function evolve(state: ProjectState, event: ProjectEvent): ProjectState {
  switch (event.type) {
    case 'ProjectCreated':
      return { status: 'active', id: event.data.id, organizationId: event.data.organizationId, name: event.data.name, apiToken: event.data.apiToken };
  }
}
