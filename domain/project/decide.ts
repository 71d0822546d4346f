import { DomainError, notFound } from '../errors';
import type { ProjectCommand } from './commands';
import type { ProjectEvent } from './events';
import type { ProjectState } from './state';

export function decide(command: ProjectCommand, state: ProjectState): ProjectEvent[] {
  const at = command.metadata.now;
  if (command.type === 'CreateProject') {
    if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This project already exists.');
    return [{ type: 'ProjectCreated', data: { ...command.data, at } }];
  }
  if (state.status !== 'active') throw notFound('Project not found.');
  switch (command.type) {
    case 'UpdateProject':
      return [{ type: 'ProjectUpdated', data: { organizationId: state.organizationId, ...command.data, at } }];
    case 'ResetProjectToken':
      if (command.data.apiToken === state.apiToken) return [];
      return [{ type: 'ProjectTokenReset', data: { organizationId: state.organizationId, apiToken: command.data.apiToken, at } }];
  }
}
