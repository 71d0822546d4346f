import { DomainError, notFound } from '../errors';
import type { UserCommand } from './commands';
import type { UserEvent } from './events';
import type { UserState } from './state';

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  const at = command.metadata.now;
  switch (command.type) {
    case 'SignUpUser':
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This user already exists.');
      return [{ type: 'UserSignedUp', data: { ...command.data, at } }];
    case 'SwitchOrganization':
      if (state.status !== 'active') throw notFound();
      if (state.currentOrganizationId === command.data.organizationId && state.currentTeamId === command.data.teamId) return [];
      return [{ type: 'UserSwitchedOrganization', data: { ...command.data, at } }];
    case 'CancelSignUp':
      if (state.status === 'none') throw notFound();
      if (state.status === 'cancelled') return [];
      return [{ type: 'UserSignUpCancelled', data: { id: state.id, at } }];
  }
}
