import request from 'supertest';
import { ADMIN_KEY, addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

describe('service basics', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
  });
  afterAll(() => c.stop());

  it('answers health and readiness', async () => {
    await request(c.app).get('/_health').expect(200, { status: 'ok' });
    // Ready once every read model, the ones on the projection thread too, has reached the head of the log.
    let ready = await request(c.app).get('/_readyz');
    for (let i = 0; i < 200 && ready.status !== 200; i++) {
      expect(ready.status).toBe(503);
      await new Promise((r) => setTimeout(r, 50));
      ready = await request(c.app).get('/_readyz');
    }
    expect(ready.body).toEqual({ status: 'ok' });
  });

  it('shows the bootstrapped user, organization and project to the bootstrap key', async () => {
    const me = await c.api('get', '/api/users/@me/').expect(200);
    expect(me.body.email).toBe('admin@localhost');
    expect(me.body.organization.id).toBe(c.organizationId);
    expect(me.body.team).toMatchObject({ id: c.projectId, api_token: expect.stringMatching(/^phc_/) });
    expect(me.body.organizations).toEqual([expect.objectContaining({ id: c.organizationId })]);
    const orgs = await c.api('get', '/api/organizations/').expect(200);
    expect(orgs.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(orgs.body.results[0]).toMatchObject({ id: c.organizationId, membership_level: 15, member_count: '1', plugins_access_level: 9 });
    const projects = await c.api('get', '/api/projects/').expect(200);
    expect(projects.body.results).toEqual([expect.objectContaining({ id: c.projectId, organization: c.organizationId })]);
  });

  it('refuses a missing or wrong key with 401 in the error envelope', async () => {
    const none = await request(c.app).get('/api/organizations/').expect(401);
    expect(none.body).toEqual({ type: 'authentication_error', code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null });
    const wrong = await request(c.app).get('/api/organizations/').set('Authorization', 'Bearer phx_nope').expect(401);
    expect(wrong.body).toMatchObject({ code: 'authentication_failed', detail: 'Personal API key found in request Authorization header is invalid.' });
    const query = await request(c.app).get('/api/organizations/?personal_api_key=phx_nope').expect(401);
    expect(query.body.detail).toBe('Personal API key found in request query string is invalid.');
    await request(c.app).get(`/api/organizations/?personal_api_key=${ADMIN_KEY}`).expect(200);
  });

  it('names the missing scope with 403', async () => {
    const user = await addUser(c, { scopes: ['dashboard:read'], organizationId: c.organizationId });
    const res = await c.api('get', '/api/organizations/', user.key).expect(403);
    expect(res.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: "API key missing required scope 'organization:read'", attr: null });
  });

  it('answers unknown paths with a JSON 404 and unknown methods with 405', async () => {
    const res = await request(c.app).get('/nowhere').expect(404);
    expect(res.body).toMatchObject({ type: 'invalid_request', code: 'not_found' });
    const put = await c.api('put', '/api/organizations/').expect(405);
    expect(put.body).toMatchObject({ code: 'method_not_allowed', detail: 'Method "PUT" not allowed.' });
  });

  it('serves paths without their trailing slash too', async () => {
    await c.api('get', '/api/organizations').expect(200);
  });

  it('does not bootstrap twice on a restart with the same data', async () => {
    const { startTestChronicle: start } = await import('../support/chronicle');
    const dataDir = c.dataDir;
    await c.close();
    c = await start({ dataDir });
    expect(c.bootstrapped).toBeNull();
    const orgs = await c.api('get', '/api/organizations/').expect(200);
    expect(orgs.body.count).toBe(1);
  });
});
