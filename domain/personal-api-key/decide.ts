import { DomainError, notFound } from '../errors';
import type { PersonalApiKeyCommand } from './commands';
import type { PersonalApiKeyEvent } from './events';
import type { PersonalApiKeyState } from './state';

/** As the reference: last_used_at moves at most once an hour, so a busy key writes one event an hour, not one a request. */
export const KEY_USE_RESOLUTION_MS = 60 * 60 * 1000;

export const keyUseIsDue = (lastUsedAt: string | null, now: string) =>
  lastUsedAt === null || Date.parse(now) - Date.parse(lastUsedAt) >= KEY_USE_RESOLUTION_MS;

export function decide(command: PersonalApiKeyCommand, state: PersonalApiKeyState): PersonalApiKeyEvent[] {
  switch (command.type) {
    case 'CreatePersonalApiKey':
      if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This key already exists.');
      return [{ type: 'PersonalApiKeyCreated', data: { ...command.data, at: command.metadata.now } }];
    case 'DeletePersonalApiKey':
      if (state.status !== 'active' || state.userId !== command.data.userId) throw notFound();
      return [{ type: 'PersonalApiKeyDeleted', data: { id: state.id, userId: state.userId, at: command.metadata.now } }];
    case 'RecordPersonalApiKeyUse':
      // A key deleted while its request was in flight, or already recorded this hour: nothing to say.
      if (state.status !== 'active' || !keyUseIsDue(state.lastUsedAt, command.metadata.now)) return [];
      return [{ type: 'PersonalApiKeyUsed', data: { id: state.id, at: command.metadata.now } }];
  }
}
