import request from 'supertest';
import { ADMIN_PASSWORD, startTestChronicle, TestChronicle } from '../support/chronicle';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { inviteAndSignUp, login, withClockAhead } from '../support/identity';

describe('login, sessions, logout, signup', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    // Behind a proxy, as the throttle tests play clients at several addresses through X-Forwarded-For.
    c = await startTestChronicle({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => c.stop());

  it('logs in with e-mail and password and sets an httpOnly, SameSite=Lax session cookie', async () => {
    const res = await request(c.app).post('/api/login/').send({ email: 'admin@LOCALHOST', password: ADMIN_PASSWORD }).expect(200);
    const cookies = res.headers['set-cookie'] as unknown as string[];
    const session = cookies.find((x) => x.startsWith('sessionid='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(JSON.stringify(res.body)).not.toContain(session.split(';')[0].slice('sessionid='.length));
    const me = await request(c.app).get('/api/users/@me/').set('Cookie', session.split(';')[0]).expect(200);
    expect(me.body).toMatchObject({ email: 'admin@localhost', organization: { id: c.organizationId }, team: { id: c.projectId } });
    expect(me.body).not.toHaveProperty('password_hash');
  });

  it('stores only a hash of the session token', async () => {
    const browser = await login(c, 'admin@localhost', ADMIN_PASSWORD);
    const token = browser.cookies.find((x) => x.startsWith('sessionid='))!.split(';')[0].slice('sessionid='.length);
    const sessions = await c.services.readStore.find('login_sessions', {});
    expect(JSON.stringify(sessions)).not.toContain(token);
    const events = await c.services.eventStore.readAll({ maxCount: 1_000_000 });
    expect(JSON.stringify(events, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(token);
  });

  it('refuses wrong credentials alike, whether the e-mail exists or not', async () => {
    const wrong = await request(c.app).post('/api/login/').send({ email: 'admin@localhost', password: 'nope' }).expect(400);
    const unknown = await request(c.app).post('/api/login/').send({ email: 'ghost@localhost', password: 'nope' }).expect(400);
    expect(wrong.body).toEqual({ type: 'validation_error', code: 'invalid_credentials', detail: 'Invalid email or password.', attr: null });
    expect(unknown.body).toEqual(wrong.body);
    const bad = await request(c.app).post('/api/login/').send({ email: 'not an email', password: 'x' }).expect(400);
    expect(bad.body).toMatchObject({ attr: 'email', detail: 'Enter a valid email address.' });
    const missing = await request(c.app).post('/api/login/').send({ email: 'admin@localhost' }).expect(400);
    expect(missing.body).toMatchObject({ attr: 'password', code: 'required' });
  });

  it('requires a same-origin request or the CSRF token for session writes, but not for keys', async () => {
    const browser = await login(c, 'admin@localhost', ADMIN_PASSWORD);
    const bare = await browser.agent.post('/api/organizations/').send({ name: 'CSRF victim' }).expect(403);
    expect(bare.body).toMatchObject({ type: 'authentication_error', code: 'permission_denied', detail: expect.stringContaining('CSRF Failed') });
    const evil = await browser.agent.post('/api/organizations/').set('Origin', 'https://evil.example').send({ name: 'CSRF victim' }).expect(403);
    expect(evil.body.detail).toContain('https://evil.example does not match any trusted origins');
    const wrongToken = await browser.agent.post('/api/organizations/').set('X-CSRFToken', 'forged').send({ name: 'CSRF victim' }).expect(403);
    expect(wrongToken.body.code).toBe('permission_denied');
    await browser.agent.get('/api/organizations/').expect(200);
    await browser.agent.post('/api/organizations/').set('Host', 'chronicle.test').set('Origin', 'http://chronicle.test').send({ name: 'Same origin' }).expect(201);
    await browser.agent.post('/api/organizations/').set('Host', 'chronicle.test').set('Referer', 'http://chronicle.test/settings').send({ name: 'Referer' }).expect(201);
    await browser.call('post', '/api/organizations/').send({ name: 'With token' }).expect(201);
    await c.api('post', '/api/organizations/').send({ name: 'With key' }).expect(201);
  });

  it('logs out: the cookie stops working at once', async () => {
    const browser = await login(c, 'admin@localhost', ADMIN_PASSWORD);
    await browser.call('get', '/api/users/@me/').expect(200);
    const out = await browser.call('post', '/api/logout/').expect(200);
    expect((out.headers['set-cookie'] as unknown as string[]).join(';')).toMatch(/sessionid=;/);
    const session = browser.cookies.find((x) => x.startsWith('sessionid='))!.split(';')[0];
    const after = await request(c.app).get('/api/users/@me/').set('Cookie', session).expect(401);
    expect(after.body.code).toBe('not_authenticated');
  });

  it('signs up through an invite: a member at the invite level, logged in, the invite used up', async () => {
    const person = await inviteAndSignUp(c, { level: 8, email: 'New.Person@Example.COM', firstName: 'Newton' });
    expect(person.user).toMatchObject({ email: 'New.Person@example.com', first_name: 'Newton', organization: { id: c.organizationId } });
    expect(person.user.organizations).toEqual([expect.objectContaining({ id: c.organizationId, membership_level: 8 })]);
    expect(JSON.stringify(person.user)).not.toContain(person.password);
    await person.call('get', '/api/users/@me/').expect(200);
    const again = await request(c.app).post(`/api/signup/${person.inviteId}/`).send({ first_name: 'X', password: 'another password' }).expect(400);
    expect(again.body).toMatchObject({ code: 'invalid_input', detail: 'The provided invite ID is not valid.' });
    const invites = await c.api('get', `/api/organizations/${c.organizationId}/invites/`).expect(200);
    expect(invites.body.results.map((i: { id: string }) => i.id)).not.toContain(person.inviteId);
    await (await login(c, 'New.Person@example.com', person.password)).call('get', '/api/users/@me/').expect(200);
  });

  it('refuses an expired invite with code expired, and a bad body or unknown invite with 400', async () => {
    const invite = await c.api('post', `/api/organizations/${c.organizationId}/invites/`).send({ target_email: 'late@example.com' }).expect(201);
    await withClockAhead(3 * 24 * 3600 * 1000 + 60_000, async () => {
      const listed = await c.api('get', `/api/organizations/${c.organizationId}/invites/`).expect(200);
      expect(listed.body.results.find((i: { id: string }) => i.id === invite.body.id)).toMatchObject({ is_expired: true });
      const expired = await request(c.app).post(`/api/signup/${invite.body.id}/`).send({ first_name: 'Late', password: 'long enough pw' }).expect(400);
      expect(expired.body).toEqual({ type: 'validation_error', code: 'expired', detail: 'This invite has expired. Please ask your admin for a new one.', attr: null });
    });
    const short = await request(c.app).post(`/api/signup/${invite.body.id}/`).send({ first_name: 'Late', password: 'short' }).expect(400);
    expect(short.body).toMatchObject({ attr: 'password', code: 'password_too_short' });
    const noName = await request(c.app).post(`/api/signup/${invite.body.id}/`).send({ password: 'long enough pw' }).expect(400);
    expect(noName.body).toMatchObject({ attr: 'first_name', code: 'required' });
    await request(c.app).post('/api/signup/not-a-uuid/').send({ first_name: 'A', password: 'long enough pw' }).expect(400);
    await request(c.app).post(`/api/signup/${crypto.randomUUID()}/`).send({ first_name: 'A', password: 'long enough pw' }).expect(400);
  });

  it('an expired session stops authenticating; logging out ends only that session', async () => {
    const cookieOf = (b: { cookies: string[] }) => b.cookies.find((x) => x.startsWith('sessionid='))!.split(';')[0];
    const laptop = await login(c, 'admin@localhost', ADMIN_PASSWORD);
    const phone = await login(c, 'admin@localhost', ADMIN_PASSWORD);
    await laptop.call('post', '/api/logout/').expect(200);
    expect((await request(c.app).get('/api/users/@me/').set('Cookie', cookieOf(laptop)).expect(401)).body.code).toBe('not_authenticated');
    await request(c.app).get('/api/users/@me/').set('Cookie', cookieOf(phone)).expect(200);
    // Two weeks and a minute on, the server refuses the cookie itself (sent by hand: a browser would have dropped it).
    await withClockAhead(14 * 24 * 3600 * 1000 + 60_000, async () => {
      const expired = await request(c.app).get('/api/users/@me/').set('Cookie', cookieOf(phone)).expect(401);
      expect(expired.body.code).toBe('not_authenticated');
    });
  });

  it('signup is safe when the invite goes between the check and its use: refused, and no user is left behind', async () => {
    const email = 'racer@example.com';
    const adminId = (await c.api('get', '/api/users/@me/').expect(200)).body.id;
    const invite = await c.api('post', `/api/organizations/${c.organizationId}/invites/`).send({ target_email: email }).expect(201);
    const handle = c.services.commands.handle.bind(c.services.commands);
    // The admin deletes the invite right after the user was written, before the invite is used.
    const spy = jest.spyOn(c.services.commands, 'handle').mockImplementation(async (decider, stream, command, options) => {
      const result = await handle(decider, stream, command, options);
      if (command.type === 'SignUpUser') {
        await handle(organizationDecider, organizationStream(c.organizationId), {
          type: 'DeleteInvite',
          data: { inviteId: invite.body.id },
          metadata: { now: new Date().toISOString(), userId: adminId },
        });
      }
      return result;
    });
    try {
      const res = await request(c.app).post(`/api/signup/${invite.body.id}/`).send({ first_name: 'Racer', password: 'long enough pw' }).expect(400);
      expect(res.body).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'The provided invite ID is not valid.', attr: null });
      expect(res.headers['set-cookie']).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
    expect(await c.services.readStore.count('users', { email })).toBe(0);
    await request(c.app).post('/api/login/').set('X-Forwarded-For', '198.51.100.1').send({ email, password: 'long enough pw' }).expect(400);
    const members = await c.api('get', `/api/organizations/${c.organizationId}/members/?email=${email}`).expect(200);
    expect(members.body.count).toBe(0);
    // The address is free: a new invite lets the same person in.
    const person = await inviteAndSignUp(c, { email });
    expect(person.user).toMatchObject({ email, organization: { id: c.organizationId } });
  });

  it('makes one account of two simultaneous signups for one e-mail through invites of two organizations', async () => {
    const second = await c.api('post', '/api/organizations/').send({ name: 'Second for signups' }).expect(201);
    const email = 'twice@example.com';
    const invites = await Promise.all(
      [c.organizationId, second.body.id].map((org) => c.api('post', `/api/organizations/${org}/invites/`).send({ target_email: email }).expect(201)),
    );
    const signups = await Promise.all(
      invites.map((invite) => request(c.app).post(`/api/signup/${invite.body.id}/`).send({ first_name: 'Twice', password: 'a long enough password' })),
    );
    expect(signups.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(signups.find((r) => r.status === 400)!.body).toMatchObject({ code: 'unique', attr: 'email' });
    expect(await c.services.readStore.count('users', { email })).toBe(1);
  });

  describe('failed-login throttle (10 failures in 5 minutes)', () => {
    const attempt = (email: string, password: string, client: string) =>
      request(c.app).post('/api/login/').set('X-Forwarded-For', client).send({ email, password });
    const THROTTLED = { type: 'throttled_error', code: 'throttled', detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/), attr: null };

    it('per e-mail, from any address, the right password included, known or unknown e-mail alike; over after the window', async () => {
      const person = await inviteAndSignUp(c, { level: 1 });
      for (let i = 0; i < 10; i++) await attempt(person.email, 'wrong password', `10.0.0.${i}`).expect(400);
      const refused = await attempt(person.email, person.password, '10.0.1.1').expect(429);
      expect(refused.body).toEqual(THROTTLED);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(300);
      expect(refused.body.detail).toBe(`Request was throttled. Expected available in ${wait} seconds.`);
      expect(refused.headers['set-cookie']).toBeUndefined();

      for (let i = 0; i < 10; i++) await attempt('nobody@example.com', 'wrong password', `10.0.2.${i}`).expect(400);
      const ghost = await attempt('nobody@example.com', 'wrong password', '10.0.3.1').expect(429);
      expect(ghost.body).toEqual(THROTTLED);

      await attempt('admin@localhost', ADMIN_PASSWORD, '10.0.5.1').expect(200);
      await withClockAhead(5 * 60 * 1000 + 1000, async () => {
        await attempt(person.email, person.password, '10.0.4.1').expect(200);
      });
    });

    it('per client address, whichever e-mails it tries; other addresses are not affected', async () => {
      for (let i = 0; i < 10; i++) await attempt(`spray${i}@example.com`, 'wrong password', '192.0.2.7').expect(400);
      const refused = await attempt('admin@localhost', ADMIN_PASSWORD, '192.0.2.7').expect(429);
      expect(refused.body).toEqual(THROTTLED);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await attempt('admin@localhost', ADMIN_PASSWORD, '192.0.2.8').expect(200);
    });

  });
});
