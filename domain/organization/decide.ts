import { DomainError, invalid, notFound } from '../errors';
import type { OrganizationCommand } from './commands';
import type { OrganizationEvent } from './events';
import { MembershipLevel, PLUGINS_ACCESS_ROOT } from './levels';
import type { OrganizationState } from './state';

export function decide(command: OrganizationCommand, state: OrganizationState): OrganizationEvent[] {
  const at = command.metadata.now;
  switch (command.type) {
    case 'CreateOrganization': {
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This organization already exists.');
      const { id, name, slug, owner } = command.data;
      return [
        { type: 'OrganizationCreated', data: { id, name, slug, createdBy: owner.userId, pluginsAccessLevel: PLUGINS_ACCESS_ROOT, at } },
        { type: 'OrganizationMemberJoined', data: { ...owner, level: MembershipLevel.owner, at } },
      ];
    }
    case 'AddOrganizationMember': {
      if (state.status !== 'active') throw notFound('Organization not found.');
      if (state.members[command.data.userId]) {
        throw invalid('A user with this email address already belongs to the organization.', null);
      }
      return [{ type: 'OrganizationMemberJoined', data: { ...command.data, at } }];
    }
  }
}
