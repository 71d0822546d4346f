import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

const pause = () => new Promise((r) => setTimeout(r, 5));

describe('history: activity logs and as-of reads', () => {
  let c: TestChronicle;
  let dashboards: string;
  beforeAll(async () => {
    c = await startTestChronicle();
    dashboards = `/api/projects/${c.projectId}/dashboards/`;
  });
  afterAll(() => c.stop());

  it('lists each change of a dashboard with its before and after, newest first', async () => {
    const created = await c.api('post', dashboards).send({ name: 'Revenue', tags: ['Money'] }).expect(201);
    const url = `${dashboards}${created.body.id}/`;
    await c.api('patch', url).send({ name: 'Revenue 2026' }).expect(200);
    await c.api('patch', url).send({ deleted: true }).expect(200);
    const res = await c.api('get', `${url}activity/`).expect(200);
    expect(res.body.count).toBe(3);
    const [deleted, renamed, made] = res.body.results;
    expect(made).toMatchObject({ activity: 'created', scope: 'Dashboard', item_id: String(created.body.id), user: { email: 'admin@localhost' } });
    expect(made.detail.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name', before: null, after: 'Revenue' })]));
    expect(renamed).toMatchObject({ activity: 'updated', detail: { name: 'Revenue 2026', changes: [expect.objectContaining({ field: 'name', before: 'Revenue', after: 'Revenue 2026', action: 'changed' })] } });
    expect(deleted.activity).toBe('deleted');
    expect(deleted.detail.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'deleted', before: false, after: true })]));
    expect(JSON.stringify(res.body)).not.toContain('access_token');
    for (const entry of res.body.results) expect(Object.keys(entry).sort()).toEqual(['activity', 'created_at', 'detail', 'id', 'item_id', 'scope', 'user']);
  });

  it('reads a dashboard as it was at a time or a revision, and 404 before it existed', async () => {
    const before = new Date().toISOString();
    await pause();
    const created = await c.api('post', dashboards).send({ name: 'First' }).expect(201);
    const url = `${dashboards}${created.body.id}/`;
    await pause();
    const between = new Date().toISOString();
    await pause();
    await c.api('patch', url).send({ name: 'Second', pinned: true }).expect(200);
    await c.api('patch', url).send({ name: 'Third' }).expect(200);
    const then = await c.api('get', `${url}?as_of=${encodeURIComponent(between)}`).expect(200);
    expect(then.body).toMatchObject({ id: created.body.id, name: 'First', pinned: false });
    expect(then.headers.etag).toBe('W/"0"');
    const second = await c.api('get', `${url}?revision=1`).expect(200);
    expect(second.body).toMatchObject({ name: 'Second', pinned: true });
    const now = await c.api('get', url).expect(200);
    expect(now.body.name).toBe('Third');
    await c.api('get', `${url}?as_of=${encodeURIComponent(before)}`).expect(404);
    const bad = await c.api('get', `${url}?as_of=yesterday-ish`).expect(400);
    expect(bad.body).toMatchObject({ type: 'validation_error', attr: 'as_of' });
  });

  it('filters activity by user and by time', async () => {
    const member = await addUser(c, { organizationId: c.organizationId, level: 8 });
    const created = await c.api('post', dashboards).send({ name: 'Shared' }).expect(201);
    const url = `${dashboards}${created.body.id}/`;
    await pause();
    const cut = new Date().toISOString();
    await pause();
    await c.api('patch', url, member.key).send({ description: 'edited by the member' }).expect(200);
    const byMember = await c.api('get', `${url}activity/?user=${member.uuid}`).expect(200);
    expect(byMember.body.results.map((e: any) => e.user.uuid)).toEqual([member.uuid]);
    const afterCut = await c.api('get', `${url}activity/?after=${encodeURIComponent(cut)}`).expect(200);
    expect(afterCut.body.results).toHaveLength(1);
    const beforeCut = await c.api('get', `${url}activity/?before=${encodeURIComponent(cut)}`).expect(200);
    expect(beforeCut.body.results.map((e: any) => e.activity)).toEqual(['created']);
  });

  it('shows domains and plugins, and the whole organization in one log', async () => {
    const domains = `/api/organizations/${c.organizationId}/domains/`;
    const domain = await c.api('post', domains).send({ domain: 'history.example.com' }).expect(201);
    await c.api('patch', `${domains}${domain.body.id}/`).send({ saml_entity_id: 'urn:x' }).expect(200);
    const domainLog = await c.api('get', `${domains}${domain.body.id}/activity/`).expect(200);
    expect(domainLog.body.results[0].detail.changes).toEqual([expect.objectContaining({ field: 'saml_entity_id', before: null, after: 'urn:x' })]);
    const plugins = `/api/organizations/${c.organizationId}/pipeline_destinations/`;
    const plugin = await c.api('post', plugins).send({ name: 'Webhook', plugin_type: 'source' }).expect(201);
    await c.api('patch', `${plugins}${plugin.body.id}/`).send({ description: 'posts events' }).expect(200);
    const pluginLog = await c.api('get', `${plugins}${plugin.body.id}/activity/`).expect(200);
    expect(pluginLog.body.results.map((e: any) => e.activity)).toEqual(['updated', 'created']);
    await c.api('delete', `${domains}${domain.body.id}/`).expect(204);
    const org = await c.api('get', `/api/organizations/${c.organizationId}/activity/?limit=500`).expect(200);
    const scopes = new Set(org.body.results.map((e: any) => e.scope));
    expect([...scopes]).toEqual(expect.arrayContaining(['Organization', 'Dashboard', 'Domain', 'Plugin']));
    // A deleted domain keeps its history.
    expect(org.body.results).toEqual(expect.arrayContaining([expect.objectContaining({ scope: 'Domain', activity: 'deleted', item_id: domain.body.id })]));
    const times = org.body.results.map((e: any) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('shows members, invites and batch exports, secrets left out', async () => {
    const org = `/api/organizations/${c.organizationId}`;
    const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
    await c.api('patch', `${org}/members/${member.uuid}/`).send({ level: 8 }).expect(200);
    const memberLog = await c.api('get', `${org}/members/${member.uuid}/activity/`).expect(200);
    expect(memberLog.body.results.map((e: any) => e.activity)).toEqual(['updated', 'created']);
    expect(memberLog.body.results[0].detail.changes).toEqual([expect.objectContaining({ field: 'level', before: 1, after: 8 })]);

    const invite = await c.api('post', `${org}/invites/`).send({ target_email: 'history@example.com', level: 1 }).expect(201);
    await c.api('delete', `${org}/invites/${invite.body.id}/`).expect(204);
    const inviteLog = await c.api('get', `${org}/invites/${invite.body.id}/activity/`).expect(200);
    expect(inviteLog.body.results.map((e: any) => e.activity)).toEqual(['deleted', 'created']);
    expect(inviteLog.body.results[1].detail.name).toBe('history@example.com');

    const destination = { type: 'Postgres', config: { user: 'u', password: 'hunter2-secret', host: 'db.example.com', database: 'd' } };
    const exported = await c.api('post', `${org}/batch_exports/`).send({ name: 'To warehouse', destination, interval: 'hour' }).expect(201);
    const url = `${org}/batch_exports/${exported.body.id}/`;
    await c.api('post', `${url}pause/`).expect(200);
    await c.api('patch', url).send({ name: 'To the warehouse', destination: { config: { password: 'another-secret' } } }).expect(200);
    const exportLog = await c.api('get', `${url}activity/`).expect(200);
    expect(exportLog.body.results.map((e: any) => e.activity)).toEqual(['updated', 'paused', 'created']);
    expect(JSON.stringify(exportLog.body)).not.toMatch(/hunter2-secret|another-secret/);
    const asCreated = await c.api('get', `${url}?revision=0`).expect(200);
    expect(asCreated.body).toMatchObject({ name: 'To warehouse', paused: false });
    expect(asCreated.body.destination.config).not.toHaveProperty('password');
  });

  it('applies the access rules of the resource and the activity_log:read scope', async () => {
    const created = await c.api('post', dashboards).send({ name: 'Guarded' }).expect(201);
    const url = `${dashboards}${created.body.id}/`;
    const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:read'] });
    const denied = await c.api('get', `${url}activity/`, reader.key).expect(403);
    expect(denied.body.detail).toBe("API key missing required scope 'activity_log:read'");
    const outsider = await addUser(c, { scopes: ['*'] });
    await c.api('get', `${url}activity/`, outsider.key).expect(403);
    await c.api('get', `${url}?revision=0`, outsider.key).expect(403);
    await c.api('get', `/api/projects/${c.projectId}/dashboards/999999/activity/`).expect(404);
  });
});
