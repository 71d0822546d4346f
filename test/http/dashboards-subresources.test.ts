import { createProject } from '../../src/identity/provisioning';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('dashboard tiles, collaborators and sharing', () => {
  let c: TestChronicle;
  let url: string;
  const create = (body: object = {}, key?: string) => c.api('post', url, key).send(body).expect(201).then((r) => r.body);

  beforeAll(async () => {
    c = await startTestChronicle();
    url = `/api/projects/${c.projectId}/dashboards/`;
  });
  afterAll(() => c.stop());

  describe('move_tile', () => {
    it('moves a tile to another dashboard and answers 200 with an empty body', async () => {
      const source = await create({ tiles: [{ text: { body: 'moving' } }, { text: { body: 'staying' } }] });
      const target = await create({});
      const tile = source.tiles.find((t: any) => t.text.body === 'moving');
      const res = await c.api('patch', `${url}${source.id}/move_tile/`).send({ tile: { id: tile.id }, toDashboard: target.id }).expect(200);
      expect(res.text).toBe('');
      const after = await c.api('get', `${url}${source.id}/`).expect(200);
      expect(after.body.tiles.map((t: any) => t.text.body)).toEqual(['staying']);
      const moved = await c.api('get', `${url}${target.id}/`).expect(200);
      expect(moved.body.tiles).toEqual([expect.objectContaining({ id: tile.id, dashboard_id: target.id, text: { body: 'moving' } })]);
    });

    it('is 404 for a tile not on the source or a target in another project', async () => {
      const source = await create({ tiles: [{ text: { body: 't' } }] });
      const target = await create({});
      await c.api('patch', `${url}${source.id}/move_tile/`).send({ tile: { id: 987654 }, toDashboard: target.id }).expect(404);
      const other = await createProject(c.services, { now: new Date().toISOString() }, { organizationId: c.organizationId, name: 'Elsewhere' });
      const foreign = await c.api('post', `/api/projects/${other.id}/dashboards/`).send({}).expect(201);
      await c.api('patch', `${url}${source.id}/move_tile/`).send({ tile: { id: source.tiles[0].id }, toDashboard: foreign.body.id }).expect(404);
      const bad = await c.api('patch', `${url}${source.id}/move_tile/`).send({ tile: {}, toDashboard: target.id }).expect(400);
      expect(bad.body.attr).toBe('tile__id');
    });

    it('needs edit rights on the destination, and dashboard:write', async () => {
      const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
      const source = await create({ tiles: [{ text: { body: 't' } }] });
      const locked = await create({ restriction_level: 37 });
      const res = await c.api('patch', `${url}${source.id}/move_tile/`, member.key).send({ tile: { id: source.tiles[0].id }, toDashboard: locked.id }).expect(403);
      expect(res.body.detail).toBe("You don't have edit permissions for the destination dashboard.");
      expect((await c.api('get', `${url}${source.id}/`).expect(200)).body.tiles).toHaveLength(1);
      const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:read'] });
      const scope = await c.api('patch', `${url}${source.id}/move_tile/`, reader.key).send({ tile: { id: source.tiles[0].id }, toDashboard: locked.id }).expect(403);
      expect(scope.body.detail).toBe("API key missing required scope 'dashboard:write'");
    });
  });

  describe('collaborators', () => {
    it('adds, lists and removes a collaborator', async () => {
      const dashboard = await create({ restriction_level: 37 });
      const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
      const col = `${url}${dashboard.id}/collaborators/`;
      expect((await c.api('get', col).expect(200)).body).toEqual([]);
      const added = await c.api('post', col).send({ user_uuid: member.uuid, level: 37 }).expect(201);
      expect(Object.keys(added.body).sort()).toEqual(['added_at', 'dashboard_id', 'id', 'level', 'updated_at', 'user', 'user_uuid']);
      expect(added.body).toMatchObject({ dashboard_id: dashboard.id, level: 37, user_uuid: member.uuid, user: { uuid: member.uuid, email: member.email } });
      expect(added.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(added.body.added_at).toMatch(ISO);
      expect((await c.api('get', col).expect(200)).body).toEqual([added.body]);
      const view = await c.api('get', `${url}${dashboard.id}/`, member.key).expect(200);
      expect(view.body.effective_privilege_level).toBe(37);
      await c.api('patch', `${url}${dashboard.id}/`, member.key).send({ name: 'Collaborative' }).expect(200);
      const removed = await c.api('delete', `${col}${member.uuid}/`).expect(204);
      expect(removed.text).toBe('');
      expect((await c.api('get', col).expect(200)).body).toEqual([]);
      await c.api('delete', `${col}${member.uuid}/`).expect(404);
    });

    it('applies every rule of adding with its text', async () => {
      const open = await create({});
      const locked = await create({ restriction_level: 37 });
      const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
      const admin = await addUser(c, { organizationId: c.organizationId, level: 8 });
      const outsider = await addUser(c, {});
      const me = (await c.api('get', '/api/users/@me/').expect(200)).body;
      const add = (id: number, body: object) => c.api('post', `${url}${id}/collaborators/`).send(body).expect(400).then((r) => r.body.detail);
      expect(await add(open.id, { user_uuid: member.uuid, level: 37 })).toBe('Cannot add collaborators to a dashboard on the lowest restriction level.');
      expect(await add(locked.id, { user_uuid: member.uuid, level: 21 })).toBe('Only edit access can be explicitly specified currently.');
      expect(await add(locked.id, { user_uuid: '00000000-0000-4000-8000-000000000000', level: 37 })).toBe('User does not exist.');
      expect(await add(locked.id, { user_uuid: outsider.uuid, level: 37 })).toBe('Cannot add collaborators that have no access to the project.');
      const inherent = 'Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).';
      expect(await add(locked.id, { user_uuid: admin.uuid, level: 37 })).toBe(inherent);
      expect(await add(locked.id, { user_uuid: me.uuid, level: 37 })).toBe(inherent);
      await c.api('post', `${url}${locked.id}/collaborators/`).send({ user_uuid: member.uuid, level: 37 }).expect(201);
      expect(await add(locked.id, { user_uuid: member.uuid, level: 37 })).toBe('User already is a collaborator.');
      const badUuid = await c.api('post', `${url}${locked.id}/collaborators/`).send({ user_uuid: 'nope', level: 37 }).expect(400);
      expect(badUuid.body.attr).toBe('user_uuid');
    });

    it('refuses removing from a dashboard back on the lowest level', async () => {
      const dashboard = await create({ restriction_level: 37 });
      const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
      await c.api('post', `${url}${dashboard.id}/collaborators/`).send({ user_uuid: member.uuid, level: 37 }).expect(201);
      await c.api('patch', `${url}${dashboard.id}/`).send({ restriction_level: 21 }).expect(200);
      const res = await c.api('delete', `${url}${dashboard.id}/collaborators/${member.uuid}/`).expect(400);
      expect(res.body.detail).toBe('Cannot remove collaborators from a dashboard on the lowest restriction level.');
    });

    it('needs dashboard:read to list and dashboard:write to change', async () => {
      const dashboard = await create({ restriction_level: 37 });
      const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:read'] });
      await c.api('get', `${url}${dashboard.id}/collaborators/`, reader.key).expect(200);
      const res = await c.api('post', `${url}${dashboard.id}/collaborators/`, reader.key).send({ user_uuid: reader.uuid, level: 37 }).expect(403);
      expect(res.body.detail).toBe("API key missing required scope 'dashboard:write'");
      const other = await addUser(c, { organizationId: c.organizationId, scopes: ['sharing_configuration:read'] });
      await c.api('get', `${url}${dashboard.id}/collaborators/`, other.key).expect(403);
    });
  });

  describe('sharing', () => {
    it('exists from creation, disabled, with a stable token', async () => {
      const dashboard = await create({});
      const first = await c.api('get', `${url}${dashboard.id}/sharing/`).expect(200);
      expect(Object.keys(first.body).sort()).toEqual(['access_token', 'created_at', 'enabled']);
      expect(first.body).toMatchObject({ enabled: false, created_at: dashboard.created_at, access_token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/) });
      const again = await c.api('get', `${url}${dashboard.id}/sharing/`).expect(200);
      expect(again.body).toEqual(first.body);
    });

    it('turns on and off with PATCH, mirrored by is_shared, and refreshes the token', async () => {
      const dashboard = await create({});
      const sharing = `${url}${dashboard.id}/sharing/`;
      const before = (await c.api('get', sharing).expect(200)).body;
      const on = await c.api('patch', sharing).send({ enabled: true }).expect(200);
      expect(on.body).toEqual({ ...before, enabled: true });
      expect((await c.api('get', `${url}${dashboard.id}/`).expect(200)).body.is_shared).toBe(true);
      const list = await c.api('get', `${url}?limit=1000`).expect(200);
      expect(list.body.results.find((d: any) => d.id === dashboard.id).is_shared).toBe(true);
      const refreshed = await c.api('post', `${sharing}refresh/`).expect(200);
      expect(refreshed.body.enabled).toBe(true);
      expect(refreshed.body.access_token).not.toBe(before.access_token);
      expect((await c.api('get', sharing).expect(200)).body.access_token).toBe(refreshed.body.access_token);
      await c.api('patch', sharing).send({ enabled: false }).expect(200);
      expect((await c.api('get', `${url}${dashboard.id}/`).expect(200)).body.is_shared).toBe(false);
      expect((await c.api('patch', sharing).send({ enabled: 'maybe' }).expect(400)).body.attr).toBe('enabled');
    });

    it('needs sharing_configuration scopes', async () => {
      const dashboard = await create({});
      const sharing = `${url}${dashboard.id}/sharing/`;
      const dashboards = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:write'] });
      const read = await c.api('get', sharing, dashboards.key).expect(403);
      expect(read.body.detail).toBe("API key missing required scope 'sharing_configuration:read'");
      const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['sharing_configuration:read'] });
      await c.api('get', sharing, reader.key).expect(200);
      const write = await c.api('patch', sharing, reader.key).send({ enabled: true }).expect(403);
      expect(write.body.detail).toBe("API key missing required scope 'sharing_configuration:write'");
      await c.api('post', `${sharing}refresh/`, reader.key).expect(403);
    });
  });
});
