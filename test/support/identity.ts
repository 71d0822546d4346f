import request from 'supertest';
import type { TestChronicle } from './chronicle';

export type Browser = {
  agent: ReturnType<typeof request.agent>;
  /** A request with the session cookie and the CSRF header a browser client sends on writes. */
  call: (method: 'get' | 'post' | 'patch' | 'put' | 'delete', url: string) => request.Test;
  cookies: string[];
};

const cookieValue = (cookies: string[], name: string) => cookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0].slice(name.length + 1);

/** Logs in through POST /api/login/ like a browser: the agent keeps the cookies. */
export async function login(c: TestChronicle, email: string, password: string): Promise<Browser> {
  const agent = request.agent(c.app);
  const res = await agent.post('/api/login/').send({ email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return browserOf(agent, res.headers['set-cookie'] as unknown as string[]);
}

export function browserOf(agent: ReturnType<typeof request.agent>, cookies: string[]): Browser {
  const csrf = cookieValue(cookies, 'csrftoken') ?? '';
  return { agent, cookies, call: (method, url) => agent[method](url).set('X-CSRFToken', csrf) };
}

let counter = 0;

/**
 * A second person, the way one really arrives: invited (by the bootstrap key unless `inviterKey`) into an
 * organization at a level, then signed up through the invite. Returns their browser session and user.
 */
export async function inviteAndSignUp(
  c: TestChronicle,
  options: { organizationId?: string; level?: number; inviterKey?: string; email?: string; firstName?: string } = {},
) {
  const organizationId = options.organizationId ?? c.organizationId;
  const email = options.email ?? `person-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const invite = await c.api('post', `/api/organizations/${organizationId}/invites/`, options.inviterKey).send({ target_email: email, level: options.level ?? 1 });
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`);
  const agent = request.agent(c.app);
  const password = 'a long enough password';
  const res = await agent.post(`/api/signup/${invite.body.id}/`).send({ first_name: options.firstName ?? 'Second', password });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user: res.body, email, password, inviteId: invite.body.id as string, ...browserOf(agent, res.headers['set-cookie'] as unknown as string[]) };
}

/** A personal API key made through the API by a logged-in person. */
export async function makeKey(browser: Browser, body: { scopes: string[]; scoped_organizations?: string[]; scoped_teams?: number[]; label?: string }) {
  const res = await browser.call('post', '/api/personal_api_keys/').send({ label: 'test', ...body });
  if (res.status !== 201) throw new Error(`key failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.value as string;
}

/** Polls until `read` gives something truthy (work that runs after an answer, such as recording a key's use). */
export async function eventually<T>(read: () => Promise<T>, attempts = 200): Promise<NonNullable<T>> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (value) return value as NonNullable<T>;
    if (i >= attempts) throw new Error('eventually: the condition never held');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs `fn` with only the wall clock moved `offsetMs` ahead; timers and I/O run for real. */
export async function withClockAhead<T>(offsetMs: number, fn: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({
    now: Date.now() + offsetMs,
    doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'hrtime', 'performance'],
  });
  try {
    return await fn();
  } finally {
    jest.useRealTimers();
  }
}
