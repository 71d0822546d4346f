import { createPersonalApiKey } from '../../src/identity/provisioning';
import { addUser, PROJECT_KEY, startTestChronicle, TestChronicle } from '../support/chronicle';
import { inviteAndSignUp } from '../support/identity';

describe('projects', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
  });
  afterAll(() => c.stop());

  it('creates and lists projects under an organization', async () => {
    const res = await c.api('post', `/api/organizations/${c.organizationId}/projects/`).send({ name: 'Second project' }).expect(201);
    expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Second project', organization: c.organizationId, api_token: expect.stringMatching(/^phc_/) });
    expect(res.body.id).toBeGreaterThan(c.projectId);
    const list = await c.api('get', `/api/organizations/${c.organizationId}/projects/`).expect(200);
    expect(list.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(list.body.results.map((p: { id: number }) => p.id)).toEqual([c.projectId, res.body.id]);
    const org = await c.api('get', `/api/organizations/${c.organizationId}/`).expect(200);
    expect(org.body.teams.map((t: { id: number }) => t.id)).toEqual([c.projectId, res.body.id]);
    expect((await c.api('get', '/api/projects/').expect(200)).body.count).toBe(2);
    expect((await c.api('post', `/api/organizations/${c.organizationId}/projects/`).send({}).expect(400)).body).toMatchObject({ code: 'required', attr: 'name' });
    expect((await c.api('post', `/api/organizations/${c.organizationId}/projects/`).send({ name: 'x'.repeat(201) }).expect(400)).body).toMatchObject({ attr: 'name' });
  });

  it('retrieves and renames a project; members read, admins write', async () => {
    const member = await inviteAndSignUp(c, { level: 1 });
    await member.call('get', `/api/projects/${c.projectId}/`).expect(200);
    const denied = await member.call('patch', `/api/projects/${c.projectId}/`).send({ name: 'Mine' }).expect(403);
    expect(denied.body.detail).toBe('Your organization access level is insufficient.');
    await member.call('post', `/api/organizations/${c.organizationId}/projects/`).send({ name: 'Mine' }).expect(403);
    const res = await c.api('patch', `/api/projects/${c.projectId}/`).send({ name: 'Renamed project' }).expect(200);
    expect(res.body).toMatchObject({ id: c.projectId, name: 'Renamed project' });
    expect(res.headers.etag).toBeDefined();
    const org = await c.api('get', `/api/organizations/${c.organizationId}/`).expect(200);
    expect(org.body.teams[0].name).toBe('Renamed project');
    await c.api('patch', `/api/projects/${c.projectId}/`).send({ name: '' }).expect(400);
    await c.api('get', '/api/projects/999999/').expect(404);
    await c.api('get', '/api/projects/abc/').expect(404);
  });

  it('rotates the project API key: the old one stops resolving at once', async () => {
    const before = await c.services.readStore.find('projects', { api_token: PROJECT_KEY });
    expect(before).toHaveLength(1);
    const res = await c.api('patch', `/api/projects/${c.projectId}/reset_token/`).expect(200);
    expect(res.body.api_token).toMatch(/^phc_/);
    expect(res.body.api_token).not.toBe(PROJECT_KEY);
    expect(await c.services.readStore.find('projects', { api_token: PROJECT_KEY })).toHaveLength(0);
    expect(await c.services.readStore.find('projects', { api_token: res.body.api_token })).toHaveLength(1);
    const me = await c.api('get', '/api/users/@me/').expect(200);
    expect(me.body.team.api_token).toBe(res.body.api_token);
    const org = await c.api('get', `/api/organizations/${c.organizationId}/`).expect(200);
    expect(org.body.teams[0].api_token).toBe(res.body.api_token);
  });

  it('keeps other organizations\' projects out of reach', async () => {
    const stranger = await addUser(c);
    const res = await c.api('get', `/api/projects/${c.projectId}/`, stranger.key).expect(403);
    expect(res.body.code).toBe('permission_denied');
    await c.api('patch', `/api/projects/${c.projectId}/reset_token/`, stranger.key).expect(403);
    await c.api('get', `/api/organizations/${c.organizationId}/projects/`, stranger.key).expect(403);
    await c.api('post', `/api/organizations/${c.organizationId}/projects/`, stranger.key).send({ name: 'x' }).expect(403);
    const me = (await c.api('get', '/api/users/@me/').expect(200)).body;
    const scoped = await createPersonalApiKey(c.services, { now: new Date().toISOString() }, { userId: me.id, label: 's', scopes: ['*'], scopedTeams: [987654] });
    const refused = await c.api('get', `/api/projects/${c.projectId}/`, scoped.value).expect(403);
    expect(refused.body.detail).toBe(`API key does not have access to the requested project: ID ${c.projectId}.`);
  });
});
