import type { Request } from 'express';
import type { Services } from '../container';
import type { ApiKeyDoc, UserDoc } from '../identity/documents';
import { recordKeyUseAfterAnswer } from '../identity/key-usage';
import { hashToken } from '../identity/secrets';
import { apiErrors } from './errors';

export type Principal = { user: UserDoc; key: ApiKeyDoc | null };

/** Session authentication is pluggable: the sessions module registers how a cookie becomes a user. */
export type SessionAuthenticator = (req: Request, services: Services) => Promise<UserDoc | null>;
const sessionAuthenticators: SessionAuthenticator[] = [];
export const registerSessionAuthenticator = (fn: SessionAuthenticator) => sessionAuthenticators.push(fn);

/**
 * Who is calling. A personal API key is looked for where the reference looks, in its order (Authorization
 * header, body field, query string) and only the first one found counts; then a session cookie.
 */
export async function authenticate(req: Request, services: Services): Promise<Principal> {
  const found = findPersonalApiKey(req);
  if (found) {
    const key = (await services.readStore.find<ApiKeyDoc>('personal_api_keys', { secure_value: hashToken(found.value) }, { limit: 1 }))[0];
    if (!key) throw apiErrors.invalidPersonalApiKey(found.where);
    const user = await services.readStore.get<UserDoc>('users', key.user_id);
    if (!user || !user.is_active) throw apiErrors.invalidPersonalApiKey(found.where);
    recordKeyUseAfterAnswer(services, key, req);
    return { user, key };
  }
  for (const session of sessionAuthenticators) {
    const user = await session(req, services);
    if (user) return { user, key: null };
  }
  throw apiErrors.notAuthenticated();
}

function findPersonalApiKey(req: Request): { value: string; where: 'Authorization header' | 'body' | 'query string' } | null {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match) return { value: match[1], where: 'Authorization header' };
  }
  const body = req.body;
  if (Buffer.isBuffer(body) && body.length > 0 && body.length < 1_000_000 && body.includes('personal_api_key')) {
    try {
      const parsed = JSON.parse(body.toString('utf8'));
      if (typeof parsed?.personal_api_key === 'string') return { value: parsed.personal_api_key, where: 'body' };
    } catch {
      // Not JSON: the body parser will say so once the caller is known.
    }
  }
  if (typeof req.query.personal_api_key === 'string') return { value: req.query.personal_api_key, where: 'query string' };
  return null;
}
