import type { OrganizationEvent } from './events';
import type { Invite } from './invites';

export type Member = { membershipId: string; userId: number; userUuid: string; level: number };

export type OrganizationState =
  | { status: 'none' }
  | { status: 'deleted' }
  | { status: 'active'; id: string; name: string; slug: string; members: Record<number, Member>; invites: Record<string, Invite> };

export const initialState = (): OrganizationState => ({ status: 'none' });

const without = <T>(record: Record<string | number, T>, key: string | number) => {
  const { [key]: _, ...rest } = record;
  return rest;
};

export function evolve(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (event.type === 'OrganizationCreated') {
    return { status: 'active', id: event.data.id, name: event.data.name, slug: event.data.slug, members: {}, invites: {} };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'OrganizationMemberJoined': {
      const { membershipId, userId, userUuid, level } = event.data;
      return { ...state, members: { ...state.members, [userId]: { membershipId, userId, userUuid, level } } };
    }
    case 'OrganizationUpdated':
      return event.data.name === undefined ? state : { ...state, name: event.data.name };
    case 'OrganizationDeleted':
      return { status: 'deleted' };
    case 'OrganizationMemberLevelChanged': {
      const member = state.members[event.data.userId];
      return member ? { ...state, members: { ...state.members, [member.userId]: { ...member, level: event.data.level } } } : state;
    }
    case 'OrganizationMemberRemoved':
      return { ...state, members: without(state.members, event.data.userId) };
    case 'OrganizationInviteCreated':
      return { ...state, invites: { ...state.invites, [event.data.invite.id]: event.data.invite } };
    case 'OrganizationInviteDeleted':
    case 'OrganizationInviteAccepted':
      return { ...state, invites: without(state.invites, event.data.inviteId) };
  }
}
