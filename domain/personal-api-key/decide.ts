import { DomainError, notFound } from '../errors';
import type { PersonalApiKeyCommand } from './commands';
import type { PersonalApiKeyEvent } from './events';
import type { PersonalApiKeyState } from './state';

export function decide(command: PersonalApiKeyCommand, state: PersonalApiKeyState): PersonalApiKeyEvent[] {
  switch (command.type) {
    case 'CreatePersonalApiKey':
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This key already exists.');
      return [{ type: 'PersonalApiKeyCreated', data: { ...command.data, at: command.metadata.now } }];
    case 'DeletePersonalApiKey':
      if (state.status !== 'active' || state.userId !== command.data.userId) throw notFound();
      return [{ type: 'PersonalApiKeyDeleted', data: { id: state.id, userId: state.userId, at: command.metadata.now } }];
  }
}
