import request from 'supertest';
import { createProject } from '../../src/identity/provisioning';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LIST_FIELDS = [
  'id', 'name', 'description', 'pinned', 'created_at', 'created_by', 'is_shared', 'deleted', 'creation_mode', 'tags',
  'restriction_level', 'effective_restriction_level', 'effective_privilege_level',
].sort();
const FULL_FIELDS = [...LIST_FIELDS, 'use_template', 'use_dashboard', 'delete_insights', 'filters', 'tiles'].sort();

describe('dashboards API', () => {
  let c: TestChronicle;
  let url: string;
  const create = (body: object = {}, key?: string) => c.api('post', url, key).send(body);

  beforeAll(async () => {
    c = await startTestChronicle();
    url = `/api/projects/${c.projectId}/dashboards/`;
  });
  afterAll(() => c.stop());

  it('creates a dashboard with the full shape, an ETag and the creator summary', async () => {
    const res = await create({ name: 'Sales', description: 'numbers', pinned: true, tags: [' KPI', 'kpi', 'Growth '], filters: { date_from: '-7d' } }).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(FULL_FIELDS);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Sales',
      description: 'numbers',
      pinned: true,
      is_shared: false,
      deleted: false,
      creation_mode: 'default',
      tags: ['kpi', 'growth'],
      restriction_level: 21,
      effective_restriction_level: 21,
      effective_privilege_level: 37,
      use_template: '',
      use_dashboard: null,
      delete_insights: false,
      filters: { date_from: '-7d' },
      tiles: [],
      created_by: { email: 'admin@localhost', uuid: expect.any(String), id: expect.any(Number), distinct_id: expect.any(String) },
    });
    expect(res.body.created_at).toMatch(ISO);
    expect(res.headers.etag).toBe('W/"0"');
    const got = await c.api('get', `${url}${res.body.id}/`).expect(200);
    expect(got.body).toEqual(res.body);
    expect(got.headers.etag).toBe('W/"0"');
  });

  it('lists exactly the list fields, pinned first then by name, hiding deleted ones, paginated', async () => {
    const fresh = await createProject(c.services, { now: new Date().toISOString() }, { organizationId: c.organizationId, name: 'List project' });
    const listUrl = `/api/projects/${fresh.id}/dashboards/`;
    for (const body of [{ name: 'b' }, { name: 'a' }, { name: 'z', pinned: true }, { name: 'c', deleted: true }, { name: 'd' }]) {
      await c.api('post', listUrl).send(body).expect(201);
    }
    const all = await c.api('get', listUrl).expect(200);
    expect(all.body).toMatchObject({ count: 4, next: null, previous: null });
    expect(all.body.results.map((d: any) => d.name)).toEqual(['z', 'a', 'b', 'd']);
    for (const item of all.body.results) expect(Object.keys(item).sort()).toEqual(LIST_FIELDS);
    const page = await c.api('get', `${listUrl}?limit=2&offset=1`).expect(200);
    expect(page.body.results.map((d: any) => d.name)).toEqual(['a', 'b']);
    expect(page.body.next).toContain('offset=3');
    expect(page.body.previous).toContain('limit=2');
    const pinned = await c.api('get', `${listUrl}?pinned=true`).expect(200);
    expect(pinned.body.results.map((d: any) => d.name)).toEqual(['z']);
  });

  it('updates fields, moving the ETag forward', async () => {
    const { body } = await create({ name: 'Before' }).expect(201);
    const res = await c.api('patch', `${url}${body.id}/`).send({ name: 'After', description: 'x', pinned: true, tags: ['B', 'a'], filters: { x: 1 } }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(FULL_FIELDS);
    expect(res.body).toMatchObject({ name: 'After', description: 'x', pinned: true, tags: ['b', 'a'], filters: { x: 1 } });
    expect(res.headers.etag).toBe('W/"1"');
    const unchanged = await c.api('patch', `${url}${body.id}/`).send({ name: 'After' }).expect(200);
    expect(unchanged.headers.etag).toBe('W/"1"');
  });

  it('refuses hard delete with 405 and an empty body, after the scope check', async () => {
    const { body } = await create({ name: 'Keep' }).expect(201);
    const res = await c.api('delete', `${url}${body.id}/`).expect(405);
    expect(res.text).toBe('');
    await c.api('get', `${url}${body.id}/`).expect(200);
    const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:read'] });
    const denied = await c.api('delete', `${url}${body.id}/`, reader.key).expect(403);
    expect(denied.body.detail).toBe("API key missing required scope 'dashboard:write'");
  });

  it('soft-deletes with PATCH deleted and restores with deleted false', async () => {
    const { body } = await create({ name: 'Temporary' }).expect(201);
    await c.api('patch', `${url}${body.id}/`).send({ deleted: true }).expect(200);
    await c.api('get', `${url}${body.id}/`).expect(404);
    await c.api('get', `${url}${body.id}/sharing/`).expect(404);
    await c.api('get', `${url}${body.id}/collaborators/`).expect(404);
    const list = await c.api('get', `${url}?limit=1000`).expect(200);
    expect(list.body.results.map((d: any) => d.id)).not.toContain(body.id);
    const restored = await c.api('patch', `${url}${body.id}/`).send({ deleted: false }).expect(200);
    expect(restored.body.deleted).toBe(false);
    await c.api('get', `${url}${body.id}/`).expect(200);
  });

  describe('restriction levels', () => {
    it('refuses other values with invalid_choice', async () => {
      const res = await create({ restriction_level: 30 }).expect(400);
      expect(res.body).toMatchObject({ type: 'validation_error', code: 'invalid_choice', attr: 'restriction_level' });
    });

    it('gives members view rights only on a restricted dashboard, and 403 when they edit it', async () => {
      const { body } = await create({ name: 'Secret', restriction_level: 37 }).expect(201);
      expect(body).toMatchObject({ restriction_level: 37, effective_restriction_level: 37, effective_privilege_level: 37 });
      const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
      const seen = await c.api('get', `${url}${body.id}/`, member.key).expect(200);
      expect(seen.body.effective_privilege_level).toBe(21);
      const edit = await c.api('patch', `${url}${body.id}/`, member.key).send({ name: 'Mine' }).expect(403);
      expect(edit.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: "You don't have edit permissions for this dashboard.", attr: null });
      const admin = await addUser(c, { organizationId: c.organizationId, level: 8 });
      const adminView = await c.api('get', `${url}${body.id}/`, admin.key).expect(200);
      expect(adminView.body.effective_privilege_level).toBe(37);
      await c.api('patch', `${url}${body.id}/`, admin.key).send({ name: 'Admin edit' }).expect(200);
    });

    it('lets only the creator and admins change the restriction level', async () => {
      const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
      const { body } = await create({ name: 'Open' }).expect(201);
      await c.api('patch', `${url}${body.id}/`, member.key).send({ name: 'Member edit' }).expect(200);
      const res = await c.api('patch', `${url}${body.id}/`, member.key).send({ restriction_level: 37 }).expect(403);
      expect(res.body.detail).toBe(
        "Only the dashboard owner and project admins have the restriction rights required to change the dashboard's restriction level.",
      );
      const own = await create({ name: 'Member board' }, member.key).expect(201);
      const restricted = await c.api('patch', `${url}${own.body.id}/`, member.key).send({ restriction_level: 37 }).expect(200);
      expect(restricted.body.restriction_level).toBe(37);
    });
  });

  describe('creation modes', () => {
    it.each(['DEFAULT_APP', 'WEBSITE_TRAFFIC'])('builds the %s template with text tiles and filters', async (template) => {
      const res = await create({ name: template, use_template: template }).expect(201);
      expect(res.body.creation_mode).toBe('template');
      expect(res.body.filters).toEqual({ date_from: expect.any(String) });
      expect(res.body.tiles.length).toBeGreaterThan(0);
      for (const tile of res.body.tiles) expect(tile).toMatchObject({ text: { body: expect.any(String) }, insight: null, dashboard_id: res.body.id });
    });

    it('refuses an unknown template', async () => {
      const res = await create({ use_template: 'NOPE' }).expect(400);
      expect(res.body).toMatchObject({ type: 'validation_error', detail: 'Invalid template provided: NOPE', attr: 'use_template' });
    });

    it('duplicates a dashboard: filters unless given, tiles under new ids', async () => {
      const source = await create({ name: 'Source', filters: { a: 1 }, tiles: [{ text: { body: 'copied' }, layouts: { sm: { x: 0, y: 0, w: 6, h: 5 } } }] }).expect(201);
      const copy = await create({ name: 'Copy', use_dashboard: source.body.id }).expect(201);
      expect(copy.body).toMatchObject({ creation_mode: 'duplicate', filters: { a: 1 } });
      expect(copy.body.tiles).toEqual([expect.objectContaining({ text: { body: 'copied' }, dashboard_id: copy.body.id })]);
      expect(copy.body.tiles[0].id).not.toBe(source.body.tiles[0].id);
      const own = await create({ use_dashboard: source.body.id, filters: { b: 2 } }).expect(201);
      expect(own.body.filters).toEqual({ b: 2 });
    });

    it('refuses a bad source id and both options together', async () => {
      const bad = await create({ use_dashboard: 999999 }).expect(400);
      expect(bad.body).toMatchObject({ detail: 'Invalid value provided', attr: 'use_dashboard' });
      const both = await create({ use_dashboard: 1, use_template: 'DEFAULT_APP' }).expect(400);
      expect(both.body.detail).toBe('`use_dashboard` and `use_template` cannot be used together');
    });
  });

  describe('tiles', () => {
    it('accepts text tiles on create and answers them in the tile shape, ordered by layout', async () => {
      const res = await create({
        tiles: [
          { text: { body: 'second' }, layouts: { sm: { x: 0, y: 5, w: 6, h: 5 } }, color: 'blue' },
          { text: { body: 'first' }, layouts: { sm: { x: 0, y: 0, w: 6, h: 5 }, xs: { x: 0, y: 0, w: 1, h: 5 } } },
        ],
      }).expect(201);
      expect(res.body.tiles.map((t: any) => [t.text.body, t.order])).toEqual([['first', 0], ['second', 1]]);
      expect(Object.keys(res.body.tiles[0]).sort()).toEqual(
        ['id', 'dashboard_id', 'layouts', 'color', 'text', 'insight', 'order', 'show_description', 'transparent_background', 'last_refresh', 'is_cached'].sort(),
      );
      expect(res.body.tiles[1]).toMatchObject({ color: 'blue', insight: null, last_refresh: null, is_cached: false, dashboard_id: res.body.id });
    });

    it('adds, edits and removes tiles through PATCH', async () => {
      const { body } = await create({ tiles: [{ text: { body: 'one' } }, { text: { body: 'two' } }] }).expect(201);
      const [one, two] = body.tiles;
      const res = await c.api('patch', `${url}${body.id}/`)
        .send({ tiles: [{ text: { body: 'three' }, layouts: { sm: { x: 0, y: 9, w: 1, h: 1 } } }, { id: one.id, text: { body: 'uno' }, color: 'red' }, { id: two.id, deleted: true }] })
        .expect(200);
      const bodies = res.body.tiles.map((t: any) => t.text.body).sort();
      expect(bodies).toEqual(['three', 'uno']);
      expect(res.body.tiles.find((t: any) => t.id === one.id)).toMatchObject({ color: 'red' });
    });

    it('refuses a tile it cannot store instead of dropping it', async () => {
      const { body } = await create({}).expect(201);
      const other = await create({ tiles: [{ text: { body: 'theirs' } }] }).expect(201);
      const foreign = await c.api('patch', `${url}${body.id}/`).send({ tiles: [{ id: other.body.tiles[0].id, text: { body: 'x' } }] }).expect(400);
      expect(foreign.body.attr).toBe('tiles');
      const noText = await c.api('patch', `${url}${body.id}/`).send({ tiles: [{ color: 'red' }] }).expect(400);
      expect(noText.body.attr).toBe('tiles');
      const long = await c.api('patch', `${url}${body.id}/`).send({ tiles: [{ text: { body: 'x'.repeat(4001) } }] }).expect(400);
      expect(long.body).toMatchObject({ code: 'max_length', attr: 'tiles__0__text__body' });
      await c.api('patch', `${url}${body.id}/`).send({ tiles: [{ text: { body: 'x'.repeat(4000) } }] }).expect(200);
    });
  });

  describe('create_from_template_json', () => {
    const template = {
      template_name: 'From JSON',
      dashboard_description: 'desc',
      dashboard_filters: { date_from: '-30d' },
      tags: ['Imported'],
      tiles: [
        { type: 'TEXT', body: 'Welcome', layouts: { sm: { x: 0, y: 0, w: 6, h: 2 } }, color: 'green' },
        { type: 'INSIGHT', name: 'Pageviews', description: 'count', query: { kind: 'TrendsQuery', series: [{ event: '$pageview' }] }, layouts: { sm: { x: 0, y: 2, w: 6, h: 5 } } },
      ],
    };

    it('creates the dashboard and answers 200 with its full shape', async () => {
      const res = await c.api('post', `${url}create_from_template_json/`).send({ template }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(FULL_FIELDS);
      expect(res.body).toMatchObject({ name: 'From JSON', description: 'desc', filters: { date_from: '-30d' }, tags: ['imported'], creation_mode: 'template' });
      expect(res.body.tiles[0]).toMatchObject({ text: { body: 'Welcome' }, insight: null, color: 'green' });
      expect(res.body.tiles[1]).toMatchObject({ text: null, insight: { name: 'Pageviews', query: { kind: 'TrendsQuery' } } });
      await c.api('get', `${url}${res.body.id}/`).expect(200);
    });

    it('refuses a missing key or no tiles', async () => {
      const { template_name: _omit, ...missing } = template;
      const res = await c.api('post', `${url}create_from_template_json/`).send({ template: missing }).expect(400);
      expect(res.body).toMatchObject({ code: 'required', attr: 'template__template_name' });
      const empty = await c.api('post', `${url}create_from_template_json/`).send({ template: { ...template, tiles: [] } }).expect(400);
      expect(empty.body.attr).toBe('template__tiles');
      await c.api('post', `${url}create_from_template_json/`).send({}).expect(400);
    });

    it('needs dashboard:write', async () => {
      const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:read'] });
      await c.api('post', `${url}create_from_template_json/`, reader.key).send({ template }).expect(403);
    });
  });

  describe('the edge', () => {
    it('answers 401 without a key and 403 naming a missing scope', async () => {
      const none = await request(c.app).get(url).expect(401);
      expect(none.body.code).toBe('not_authenticated');
      const sharer = await addUser(c, { organizationId: c.organizationId, scopes: ['sharing_configuration:read'] });
      const res = await c.api('get', url, sharer.key).expect(403);
      expect(res.body.detail).toBe("API key missing required scope 'dashboard:read'");
      const reader = await addUser(c, { organizationId: c.organizationId, scopes: ['dashboard:read'] });
      await c.api('get', url, reader.key).expect(200);
      const write = await c.api('post', url, reader.key).send({}).expect(403);
      expect(write.body.detail).toBe("API key missing required scope 'dashboard:write'");
    });

    it('refuses a non-member with 403', async () => {
      const outsider = await addUser(c, {});
      await c.api('get', url, outsider.key).expect(403);
    });

    it("hides another project's dashboard behind the wrong project URL", async () => {
      const other = await createProject(c.services, { now: new Date().toISOString() }, { organizationId: c.organizationId, name: 'Other' });
      const theirs = await c.api('post', `/api/projects/${other.id}/dashboards/`).send({ name: 'Theirs' }).expect(201);
      await c.api('get', `${url}${theirs.body.id}/`).expect(404);
      await c.api('patch', `${url}${theirs.body.id}/`).send({ name: 'x' }).expect(404);
      await c.api('get', `${url}not-a-number/`).expect(404);
      await c.api('get', `/api/projects/${other.id}/dashboards/${theirs.body.id}/`).expect(200);
    });

    it('names the field of a wrong type, and refuses bad JSON and other media types', async () => {
      const res = await create({ name: 123 }).expect(400);
      expect(res.body).toMatchObject({ type: 'validation_error', attr: 'name' });
      expect((await create({ pinned: 'yes' }).expect(400)).body.attr).toBe('pinned');
      expect((await create({ tags: 'a' }).expect(400)).body.attr).toBe('tags');
      const filters = await create({ filters: [1] }).expect(400);
      expect(filters.body).toMatchObject({ detail: 'Filters must be a dictionary', attr: 'filters' });
      await c.api('post', url).set('Content-Type', 'application/json').send('{"name":').expect(400);
      await c.api('post', url).set('Content-Type', 'text/plain').send('name=x').expect(415);
    });

    it('answers 412 to a PATCH with a stale If-Match', async () => {
      const { body } = await create({ name: 'Versioned' }).expect(201);
      await c.api('patch', `${url}${body.id}/`).set('If-Match', 'W/"0"').send({ name: 'v1' }).expect(200);
      await c.api('patch', `${url}${body.id}/`).set('If-Match', 'W/"0"').send({ name: 'v2' }).expect(412);
      expect((await c.api('get', `${url}${body.id}/`).expect(200)).body.name).toBe('v1');
    });

    it('serves the paths without their trailing slash', async () => {
      await c.api('get', url.replace(/\/$/, '')).expect(200);
    });
  });
});
