import { DomainError } from '../errors';
import type { SessionCommand } from './commands';
import type { SessionEvent } from './events';
import type { SessionState } from './state';

export function decide(command: SessionCommand, state: SessionState): SessionEvent[] {
  const at = command.metadata.now;
  switch (command.type) {
    case 'StartSession':
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This session already exists.');
      return [{ type: 'SessionStarted', data: { ...command.data, at } }];
    case 'EndSession':
      // Logging out twice is not an error: the session is over either way.
      if (state.status !== 'active') return [];
      return [{ type: 'SessionEnded', data: { id: state.id, userId: state.userId, at } }];
  }
}
