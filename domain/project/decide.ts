import { DomainError } from '../errors';
import type { ProjectCommand } from './commands';
import type { ProjectEvent } from './events';
import type { ProjectState } from './state';

export function decide(command: ProjectCommand, state: ProjectState): ProjectEvent[] {
  switch (command.type) {
    case 'CreateProject':
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This project already exists.');
      return [{ type: 'ProjectCreated', data: { ...command.data, at: command.metadata.now } }];
  }
}
