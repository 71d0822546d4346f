import type { OrganizationEvent } from './events';

export type Member = { membershipId: string; userId: number; userUuid: string; level: number };

export type OrganizationState =
  | { status: 'none' }
  | { status: 'active'; id: string; name: string; slug: string; members: Record<number, Member> };

export const initialState = (): OrganizationState => ({ status: 'none' });

export function evolve(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  switch (event.type) {
    case 'OrganizationCreated':
      return { status: 'active', id: event.data.id, name: event.data.name, slug: event.data.slug, members: {} };
    case 'OrganizationMemberJoined':
      if (state.status !== 'active') return state;
      return { ...state, members: { ...state.members, [event.data.userId]: { ...event.data } } };
  }
}
