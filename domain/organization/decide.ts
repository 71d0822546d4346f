import type { CommandMetadata } from '../decider';
import { denied, DomainError, invalid, notFound } from '../errors';
import type { OrganizationCommand } from './commands';
import type { OrganizationEvent } from './events';
import { checkInvite, combineInvites, Invite, isExpired } from './invites';
import { MembershipLevel, PLUGINS_ACCESS_ROOT } from './levels';
import { checkMemberChange, checkRemovable, INSUFFICIENT_LEVEL } from './members';
import type { Member, OrganizationState } from './state';

type Active = Extract<OrganizationState, { status: 'active' }>;

function active(state: OrganizationState): Active {
  if (state.status !== 'active') throw notFound('Organization not found.');
  return state;
}

/** The acting user's membership; the router already refused non-members, so a miss here is a race: 403. */
function actor(state: Active, metadata: CommandMetadata): Member {
  const member = metadata.userId === undefined ? undefined : state.members[metadata.userId];
  if (!member) throw denied('You do not have permission to perform this action.');
  return member;
}

function member(state: Active, userId: number): Member {
  const found = state.members[userId];
  if (!found) throw notFound();
  return found;
}

export function decide(command: OrganizationCommand, state: OrganizationState): OrganizationEvent[] {
  const at = command.metadata.now;
  switch (command.type) {
    case 'CreateOrganization': {
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This organization already exists.');
      const { id, name, slug, owner, settings = {} } = command.data;
      return [
        { type: 'OrganizationCreated', data: { id, name, slug, createdBy: owner.userId, pluginsAccessLevel: PLUGINS_ACCESS_ROOT, ...settings, at } },
        { type: 'OrganizationMemberJoined', data: { ...owner, level: MembershipLevel.owner, at } },
      ];
    }
    case 'AddOrganizationMember': {
      const org = active(state);
      if (org.members[command.data.userId]) throw invalid('A user with this email address already belongs to the organization.');
      return [{ type: 'OrganizationMemberJoined', data: { ...command.data, at } }];
    }
    case 'UpdateOrganization': {
      const org = active(state);
      if (actor(org, command.metadata).level < MembershipLevel.admin) throw denied(INSUFFICIENT_LEVEL);
      return [{ type: 'OrganizationUpdated', data: { ...command.data, at } }];
    }
    case 'DeleteOrganization': {
      const org = active(state);
      if (actor(org, command.metadata).level < MembershipLevel.owner) throw denied(INSUFFICIENT_LEVEL);
      return [
        {
          type: 'OrganizationDeleted',
          data: { memberUserIds: Object.values(org.members).map((m) => m.userId), inviteIds: Object.keys(org.invites), projectIds: command.data.projectIds, at },
        },
      ];
    }
    case 'ChangeMemberLevel': {
      const org = active(state);
      const me = actor(org, command.metadata);
      const target = member(org, command.data.userId);
      checkMemberChange(me, target, command.data.level);
      if (target.level === command.data.level) return [];
      return [{ type: 'OrganizationMemberLevelChanged', data: { userId: target.userId, level: command.data.level, at } }];
    }
    case 'RemoveMember': {
      const org = active(state);
      const me = actor(org, command.metadata);
      const target = member(org, command.data.userId);
      checkMemberChange(me, target);
      checkRemovable(target);
      return [{ type: 'OrganizationMemberRemoved', data: { userId: target.userId, at } }];
    }
    case 'InviteMembers': {
      const org = active(state);
      const me = actor(org, command.metadata);
      const memberIds = new Set(Object.values(org.members).map((m) => m.userId));
      const projectIds = new Set(command.data.projectIds);
      const events: OrganizationEvent[] = [];
      // Invites of the same request replace one another as they would one request at a time.
      const pending = new Map<string, Invite>(Object.values(org.invites).map((i) => [i.id, i]));
      for (const input of command.data.invites) {
        checkInvite(input, me.level, memberIds, projectIds);
        const previous = [...pending.values()].filter((i) => i.targetEmail.toLowerCase() === input.targetEmail.toLowerCase());
        for (const { id } of previous) {
          events.push({ type: 'OrganizationInviteDeleted', data: { inviteId: id, reason: 'replaced', at } });
          pending.delete(id);
        }
        const { existingUserId: _, combinePendingInvites, ...rest } = input;
        // A replacement is a new invite: created now, so its three days start again (the "resend" users ask for).
        const invite: Invite = { ...rest, ...(combinePendingInvites ? combineInvites(input, previous, at) : {}), createdBy: me.userId, createdAt: at };
        events.push({ type: 'OrganizationInviteCreated', data: { invite, at } });
        pending.set(invite.id, invite);
      }
      return events;
    }
    case 'DeleteInvite': {
      const org = active(state);
      actor(org, command.metadata);
      if (!org.invites[command.data.inviteId]) throw notFound();
      return [{ type: 'OrganizationInviteDeleted', data: { inviteId: command.data.inviteId, reason: 'deleted', at } }];
    }
    case 'AcceptInvite': {
      if (state.status !== 'active') throw invalid('The provided invite ID is not valid.');
      const invite = state.invites[command.data.inviteId];
      if (!invite) throw invalid('The provided invite ID is not valid.');
      if (isExpired(invite.createdAt, at)) throw invalid('This invite has expired. Please ask your admin for a new one.', null, 'expired');
      if (state.members[command.data.userId]) throw invalid('A user with this email address already belongs to the organization.');
      const { userId, userUuid, membershipId } = command.data;
      return [
        { type: 'OrganizationInviteAccepted', data: { inviteId: invite.id, acceptedBy: userId, at } },
        { type: 'OrganizationMemberJoined', data: { membershipId, userId, userUuid, level: invite.level, at } },
      ];
    }
  }
}
