import type { UserEvent } from './events';

export type UserState =
  | { status: 'none' }
  | { status: 'cancelled'; id: number }
  | { status: 'active'; id: number; uuid: string; email: string; currentOrganizationId: string | null; currentTeamId: number | null };

export const initialState = (): UserState => ({ status: 'none' });

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserSignedUp':
      return { status: 'active', id: event.data.id, uuid: event.data.uuid, email: event.data.email, currentOrganizationId: null, currentTeamId: null };
    case 'UserSwitchedOrganization':
      return state.status === 'active' ? { ...state, currentOrganizationId: event.data.organizationId, currentTeamId: event.data.teamId } : state;
    case 'UserSignUpCancelled':
      return { status: 'cancelled', id: event.data.id };
  }
}
