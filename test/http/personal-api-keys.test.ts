import request from 'supertest';
import { ADMIN_KEY, ADMIN_PASSWORD, startTestChronicle, TestChronicle } from '../support/chronicle';
import type { ApiKeyDoc } from '../../src/identity/documents';
import { Browser, eventually, inviteAndSignUp, login, withClockAhead } from '../support/identity';

describe('personal API keys', () => {
  let c: TestChronicle;
  let admin: Browser;
  beforeAll(async () => {
    c = await startTestChronicle();
    admin = await login(c, 'admin@localhost', ADMIN_PASSWORD);
  });
  afterAll(() => c.stop());

  it('creates a key: the value shown once, only its hash stored, then it authenticates', async () => {
    const res = await admin.call('post', '/api/personal_api_keys/').send({ label: 'CI', scopes: ['organization:read'] }).expect(201);
    expect(res.body).toMatchObject({ id: expect.any(String), label: 'CI', value: expect.stringMatching(/^phx_/), scopes: ['organization:read'], scoped_organizations: [], scoped_teams: [], last_used_at: null });
    expect(res.body.mask_value).toMatch(/^phx_\.\.\..{4}$/);
    const value = res.body.value;
    const list = await admin.call('get', '/api/personal_api_keys/').expect(200);
    expect(JSON.stringify(list.body)).not.toContain(value);
    expect(list.body).toMatchObject({ next: null, previous: null });
    expect(list.body.results.map((k: { id: string }) => k.id)).toContain(res.body.id);
    const one = await admin.call('get', `/api/personal_api_keys/${res.body.id}/`).expect(200);
    expect(one.body).not.toHaveProperty('value');
    const events = await c.services.eventStore.readAll({ maxCount: 1_000_000 });
    expect(JSON.stringify(events, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(value);
    await c.api('get', '/api/organizations/', value).expect(200);
    const scope = await c.api('post', '/api/organizations/', value).send({ name: 'x' }).expect(403);
    expect(scope.body.detail).toBe("API key missing required scope 'organization:write'");
  });

  it('validates label and scopes against the known list', async () => {
    expect((await admin.call('post', '/api/personal_api_keys/').send({ label: 'x', scopes: ['dashboard:read', 'root:write'] }).expect(400)).body).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'Invalid scope: root:write',
      attr: 'scopes',
    });
    expect((await admin.call('post', '/api/personal_api_keys/').send({ scopes: ['*'] }).expect(400)).body).toMatchObject({ code: 'required', attr: 'label' });
    expect((await admin.call('post', '/api/personal_api_keys/').send({ label: 'x', scopes: [] }).expect(400)).body).toMatchObject({ attr: 'scopes' });
    expect((await admin.call('post', '/api/personal_api_keys/').send({ label: 'x'.repeat(41), scopes: ['*'] }).expect(400)).body).toMatchObject({ attr: 'label', code: 'max_length' });
    const foreignOrg = await admin.call('post', '/api/personal_api_keys/').send({ label: 'x', scopes: ['*'], scoped_organizations: [crypto.randomUUID()] }).expect(400);
    expect(foreignOrg.body).toMatchObject({ attr: 'scoped_organizations', detail: 'You must be a member of all organizations that you are scoping the key to.' });
    const foreignTeam = await admin.call('post', '/api/personal_api_keys/').send({ label: 'x', scopes: ['*'], scoped_teams: [424242] }).expect(400);
    expect(foreignTeam.body).toMatchObject({ attr: 'scoped_teams', detail: 'You must be a member of all teams that you are scoping the key to.' });
  });

  it('only a session creates or deletes keys, never a key', async () => {
    const res = await c.api('post', '/api/personal_api_keys/').send({ label: 'x', scopes: ['*'] }).expect(403);
    expect(res.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: 'This action does not support personal API key access', attr: null });
    const made = await admin.call('post', '/api/personal_api_keys/').send({ label: 'y', scopes: ['*'] }).expect(201);
    await c.api('delete', `/api/personal_api_keys/${made.body.id}/`).expect(403);
    await request(c.app).get('/api/personal_api_keys/').expect(401);
    await c.api('get', '/api/personal_api_keys/').expect(200);
  });

  it('deletes a key: it stops authenticating at once; other people\'s keys are 404', async () => {
    const made = await admin.call('post', '/api/personal_api_keys/').send({ label: 'temp', scopes: ['*'] }).expect(201);
    await c.api('get', '/api/users/@me/', made.body.value).expect(200);
    const other = await inviteAndSignUp(c, { level: 1 });
    await other.call('delete', `/api/personal_api_keys/${made.body.id}/`).expect(404);
    await other.call('get', `/api/personal_api_keys/${made.body.id}/`).expect(404);
    expect((await other.call('get', '/api/personal_api_keys/').expect(200)).body.results).toEqual([]);
    const res = await admin.call('delete', `/api/personal_api_keys/${made.body.id}/`).expect(204);
    expect(res.text).toBe('');
    const after = await c.api('get', '/api/users/@me/', made.body.value).expect(401);
    expect(after.body.code).toBe('authentication_failed');
    await admin.call('delete', `/api/personal_api_keys/${made.body.id}/`).expect(404);
    await c.api('get', '/api/users/@me/', ADMIN_KEY).expect(200);
  });

  it('enforces scoped organizations and projects on the key everywhere', async () => {
    const second = (await admin.call('post', '/api/organizations/').send({ name: 'Second' }).expect(201)).body;
    const orgKey = (await admin.call('post', '/api/personal_api_keys/').send({ label: 'o', scopes: ['*'], scoped_organizations: [second.id] }).expect(201)).body.value;
    expect((await c.api('get', '/api/organizations/', orgKey).expect(200)).body.results.map((o: { id: string }) => o.id)).toEqual([second.id]);
    await c.api('get', `/api/organizations/${second.id}/members/`, orgKey).expect(200);
    const denied = await c.api('get', `/api/organizations/${c.organizationId}/members/`, orgKey).expect(403);
    expect(denied.body.detail).toBe(`API key does not have access to the requested organization: ID ${c.organizationId}.`);
    const deniedProject = await c.api('get', `/api/projects/${c.projectId}/`, orgKey).expect(403);
    expect(deniedProject.body.detail).toBe(`API key does not have access to the requested organization: ID ${c.organizationId}.`);
    const teamKey = (await admin.call('post', '/api/personal_api_keys/').send({ label: 't', scopes: ['*'], scoped_teams: [c.projectId] }).expect(201)).body.value;
    await c.api('get', `/api/projects/${c.projectId}/`, teamKey).expect(200);
    const otherProject = await c.api('get', `/api/projects/${second.teams[0].id}/`, teamKey).expect(403);
    expect(otherProject.body.detail).toBe(`API key does not have access to the requested project: ID ${second.teams[0].id}.`);
    const orgUrl = await c.api('get', `/api/organizations/${c.organizationId}/invites/`, teamKey).expect(403);
    expect(orgUrl.body.detail).toBe('API keys with scoped projects are only supported on project-based endpoints.');
  });

  describe('last_used_at', () => {
    const lastUsed = async (id: string) => (await c.services.readStore.get<ApiKeyDoc>('personal_api_keys', id))?.last_used_at ?? null;
    const usedEvents = async (id: string) => (await c.services.eventStore.readStream(`personal_api_key-${id}`)).filter((e) => e.type === 'PersonalApiKeyUsed').length;

    it('moves when the key is used, at most once an hour, as an event on the key', async () => {
      const made = (await admin.call('post', '/api/personal_api_keys/').send({ label: 'used', scopes: ['*'] }).expect(201)).body;
      expect(made.last_used_at).toBeNull();
      await c.api('get', '/api/users/@me/', made.value).expect(200);
      const first = await eventually(() => lastUsed(made.id));
      expect(Date.parse(first)).toBeGreaterThanOrEqual(Date.parse(made.created_at));
      expect(await usedEvents(made.id)).toBe(1);
      const listed = (await admin.call('get', '/api/personal_api_keys/').expect(200)).body.results.find((k: { id: string }) => k.id === made.id);
      expect(listed.last_used_at).toBe(first);

      // Within the hour: the key is read as recently used, so no write is even attempted.
      await c.api('get', '/api/organizations/', made.value).expect(200);
      await c.api('get', '/api/users/@me/', made.value).expect(200);
      expect(await usedEvents(made.id)).toBe(1);
      expect(await lastUsed(made.id)).toBe(first);

      await withClockAhead(61 * 60 * 1000, async () => {
        await c.api('get', '/api/users/@me/', made.value).expect(200);
        await eventually(async () => (await lastUsed(made.id)) !== first);
      });
      expect(await usedEvents(made.id)).toBe(2);
    });

    it('a failed record is only logged (without the key); the request it followed is answered', async () => {
      const made = (await admin.call('post', '/api/personal_api_keys/').send({ label: 'flaky', scopes: ['*'] }).expect(201)).body;
      const handle = c.services.commands.handle.bind(c.services.commands);
      const spy = jest.spyOn(c.services.commands, 'handle').mockImplementation((decider, stream, command, options) =>
        command.type === 'RecordPersonalApiKeyUse' ? Promise.reject(new Error('store unavailable')) : handle(decider, stream, command, options),
      );
      const warn = jest.spyOn(c.services.logger, 'warn');
      try {
        await c.api('get', '/api/users/@me/', made.value).expect(200);
        const call = await eventually(async () => warn.mock.calls.find(([msg]) => msg === 'recording a personal API key use failed'));
        expect(call[1]).toMatchObject({ keyId: made.id, error: 'store unavailable' });
        expect(JSON.stringify(call)).not.toContain(made.value);
      } finally {
        spy.mockRestore();
        warn.mockRestore();
      }
      expect(await lastUsed(made.id)).toBeNull();
      // The next use tries again.
      await c.api('get', '/api/users/@me/', made.value).expect(200);
      await eventually(() => lastUsed(made.id));
    });
  });
});
