import type { Request } from 'express';
import { personalApiKeyDecider, personalApiKeyStream } from '../../domain/personal-api-key';
import { keyUseIsDue } from '../../domain/personal-api-key/decide';
import type { Services } from '../container';
import type { ApiKeyDoc } from './documents';

// Keys with a record under way in this process: concurrent requests of one key fire one command, not many.
const pending = new Set<string>();

/**
 * Moves a key's last_used_at (at most once an hour, the decider's rule) once the request it authenticated has
 * been answered: the write never delays or fails a request, and a failure is only logged.
 */
export function recordKeyUseAfterAnswer(services: Services, key: ApiKeyDoc, req: Request) {
  if (!keyUseIsDue(key.last_used_at, new Date().toISOString()) || pending.has(key.id) || !req.res) return;
  pending.add(key.id);
  req.res.once('close', () => {
    const metadata = { now: new Date().toISOString(), userId: key.user_id };
    services.commands
      .handle(personalApiKeyDecider, personalApiKeyStream(key.id), { type: 'RecordPersonalApiKeyUse', data: {}, metadata })
      .catch((error: unknown) => services.logger.warn('recording a personal API key use failed', { keyId: key.id, error: error instanceof Error ? error.message : String(error) }))
      .finally(() => pending.delete(key.id));
  });
}
