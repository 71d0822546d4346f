import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { CommandMetadata } from '../../domain/decider';
import { sessionDecider, sessionStream } from '../../domain/session';
import type { Services } from '../container';
import type { LoginSessionDoc, UserDoc } from '../identity/documents';
import { emailSchema } from '../identity/email';
import { LoginThrottle } from '../identity/login-throttle';
import { generateToken, hashPassword, hashToken, verifyPassword } from '../identity/secrets';
import { registerSessionAuthenticator } from './auth';
import { ok, publicResource, resource } from './endpoint';
import { apiErrors } from './errors';
import { parseBody } from './validation';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
/** Django's default session age: two weeks. */
const SESSION_AGE_MS = 14 * 24 * 60 * 60 * 1000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function cookiesOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      out[name] = part.slice(eq + 1).trim();
    }
  }
  return out;
}

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * decisions.md CSRF rule: a state change made with a session cookie must come from our own origin (Origin or
 * Referer naming this host), or carry X-CSRFToken equal to the csrftoken cookie. A cross-site form can do neither.
 */
function checkCsrf(req: Request, services: Services) {
  const header = req.get('x-csrftoken');
  const cookie = cookiesOf(req)[CSRF_COOKIE];
  if (header && cookie && sameSecret(header, cookie)) return;
  const source = req.get('origin') ?? req.get('referer');
  if (!source) throw apiErrors.permissionDenied('CSRF Failed: Referer checking failed - no Referer.');
  const trusted = new Set([req.get('host')]);
  if (services.config.PUBLIC_URL) trusted.add(new URL(services.config.PUBLIC_URL).host);
  let host: string | null = null;
  try {
    host = new URL(source).host;
  } catch {
    host = null;
  }
  if (!host || !trusted.has(host)) throw apiErrors.permissionDenied(`CSRF Failed: Origin checking failed - ${source} does not match any trusted origins.`);
}

async function liveSession(req: Request, services: Services): Promise<LoginSessionDoc | null> {
  const token = cookiesOf(req)[SESSION_COOKIE];
  if (!token) return null;
  const session = (await services.readStore.find<LoginSessionDoc>('login_sessions', { token_hash: hashToken(token) }, { limit: 1 }))[0];
  if (!session || Date.parse(session.expires_at) <= Date.now()) return null;
  return session;
}

registerSessionAuthenticator(async (req, services) => {
  const session = await liveSession(req, services);
  if (!session) return null;
  const user = await services.readStore.get<UserDoc>('users', session.user_id);
  if (!user || !user.is_active) return null;
  if (!SAFE_METHODS.has(req.method)) checkCsrf(req, services);
  return user;
});

/** Logs a user in: only the hash of the cookie's token is stored (in the event and the read model). */
export async function startSession(services: Services, req: Request, res: Response, userId: number, metadata: CommandMetadata) {
  const token = generateToken('');
  const id = randomUUID();
  const expiresAt = new Date(Date.parse(metadata.now) + SESSION_AGE_MS);
  await services.commands.handle(sessionDecider, sessionStream(id), {
    type: 'StartSession',
    data: { id, userId, tokenHash: hashToken(token), expiresAt: expiresAt.toISOString() },
    metadata: { ...metadata, userId },
  });
  const common = { secure: req.secure, sameSite: 'lax' as const, path: '/', expires: expiresAt };
  res.cookie(SESSION_COOKIE, token, { ...common, httpOnly: true });
  res.cookie(CSRF_COOKIE, generateToken('', 24), common);
}

// Compared against when the e-mail is unknown, so a wrong address costs as long as a wrong password.
let decoyHash: string | undefined;

const loginSchema = z.object({ email: emailSchema, password: z.string().min(1).max(4096) });

export function sessionsRouter(services: Services) {
  const router = Router();
  const throttle = new LoginThrottle(services.config.LOGIN_FAILURE_LIMIT, services.config.LOGIN_FAILURE_WINDOW_SECONDS);
  publicResource(router, services, '/api/login/', {
    post: {
      handler: async ({ req, res, metadata }) => {
        const body = parseBody(req, loginSchema);
        // Before the password is looked at: over the limit, even the right one waits.
        throttle.check(body.email, req.ip);
        const user = (await services.readStore.find<UserDoc>('users', { email: body.email }, { limit: 1 }))[0];
        const valid = verifyPassword(body.password, user?.password_hash ?? (decoyHash ??= hashPassword(generateToken(''))));
        if (!user || !user.is_active || !valid) {
          throttle.failed(body.email, req.ip);
          throw apiErrors.validation('Invalid email or password.', null, 'invalid_credentials');
        }
        throttle.succeeded(body.email);
        await startSession(services, req, res, user.id, metadata);
        return ok({ success: true });
      },
    },
  });
  resource(router, services, '/api/logout/', {
    post: {
      scope: null,
      handler: async ({ req, res, metadata }) => {
        const session = await liveSession(req, services);
        if (session) await services.commands.handle(sessionDecider, sessionStream(session.id), { type: 'EndSession', data: {}, metadata });
        res.clearCookie(SESSION_COOKIE, { path: '/' });
        res.clearCookie(CSRF_COOKIE, { path: '/' });
        return ok({ success: true });
      },
    },
  });
  return router;
}
