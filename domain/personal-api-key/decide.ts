import { DomainError } from '../errors';
import type { PersonalApiKeyCommand } from './commands';
import type { PersonalApiKeyEvent } from './events';
import type { PersonalApiKeyState } from './state';

export function decide(command: PersonalApiKeyCommand, state: PersonalApiKeyState): PersonalApiKeyEvent[] {
  switch (command.type) {
    case 'CreatePersonalApiKey':
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This key already exists.');
      return [{ type: 'PersonalApiKeyCreated', data: { ...command.data, at: command.metadata.now } }];
  }
}
