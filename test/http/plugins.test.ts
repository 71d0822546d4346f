import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

const GROUPS = ['pipeline_destinations', 'pipeline_frontend_apps', 'pipeline_import_apps', 'pipeline_transformations'] as const;

describe('pipeline plugin groups', () => {
  let c: TestChronicle;
  let otherOrg: string;
  const g = (group: string, org?: string) => `/api/organizations/${org ?? c.organizationId}/${group}/`;

  beforeAll(async () => {
    c = await startTestChronicle();
    otherOrg = (await c.api('post', '/api/organizations/').send({ name: 'Other org' })).body.id;
  });
  afterAll(() => c.stop());

  it('installs a plugin with the whole interface shape, integer ids and the organization filled in', async () => {
    const res = await c
      .api('post', g('pipeline_destinations'))
      .send({ plugin_type: 'custom', name: 'Webhook', description: 'Sends events', url: 'https://github.com/x/webhook', icon: 'https://x/icon.png', config_schema: { url: { type: 'string' } }, tag: 'v1.0.0', metrics: { sent: 'sum' }, public_jobs: { replay: {} }, bogus: true })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      plugin_type: 'custom',
      name: 'Webhook',
      description: 'Sends events',
      url: 'https://github.com/x/webhook',
      icon: 'https://x/icon.png',
      config_schema: { url: { type: 'string' } },
      tag: 'v1.0.0',
      latest_tag: null,
      is_global: false,
      organization_id: c.organizationId,
      organization_name: 'Default organization',
      capabilities: { methods: ['onEvent'] },
      metrics: { sent: 'sum' },
      public_jobs: { replay: {} },
      hog_function_migration_available: 'false',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const next = await c.api('post', g('pipeline_destinations')).send({ name: 'Second' }).expect(201);
    expect(next.body.id).toBeGreaterThan(res.body.id);
    expect((await c.api('get', `${g('pipeline_destinations')}${res.body.id}/`).expect(200)).body).toEqual(res.body);
  });

  it('gives each group its default capabilities and keeps membership to what capabilities say', async () => {
    const defaults: Record<string, object> = {
      pipeline_destinations: { methods: ['onEvent'] },
      pipeline_frontend_apps: {},
      pipeline_import_apps: { scheduled_tasks: ['runEveryHour'] },
      pipeline_transformations: { methods: ['processEvent'] },
    };
    const ids: Record<string, number> = {};
    for (const group of GROUPS) {
      const res = await c.api('post', g(group)).send({ name: `default ${group}`, plugin_type: 'source' }).expect(201);
      expect(res.body.capabilities).toEqual(defaults[group]);
      ids[group] = res.body.id;
    }
    for (const group of GROUPS) {
      const list = await c.api('get', g(group)).expect(200);
      const listed = list.body.results.map((p: any) => p.id);
      for (const other of GROUPS) expect(listed.includes(ids[other])).toBe(other === group);
      for (const other of GROUPS) await c.api('get', `${g(group)}${ids[other]}/`).expect(other === group ? 200 : 404);
    }
    const both = await c.api('post', g('pipeline_transformations')).send({ capabilities: { methods: ['processEvent', 'composeWebhook'] } }).expect(201);
    await c.api('get', `${g('pipeline_destinations')}${both.body.id}/`).expect(200);
    const importByMethods = await c.api('post', g('pipeline_import_apps')).send({ capabilities: { methods: ['setupPlugin'] } }).expect(201);
    await c.api('get', `${g('pipeline_import_apps')}${importByMethods.body.id}/`).expect(200);
  });

  it('refuses capabilities of another group, bad plugin types and fields of the wrong shape', async () => {
    const wrong = await c.api('post', g('pipeline_destinations')).send({ capabilities: { methods: ['processEvent'] } }).expect(400);
    expect(wrong.body).toMatchObject({ type: 'validation_error', attr: 'capabilities' });
    await c.api('post', g('pipeline_frontend_apps')).send({ capabilities: { methods: ['onEvent'] } }).expect(400);
    const type = await c.api('post', g('pipeline_destinations')).send({ plugin_type: 'binary' }).expect(400);
    expect(type.body).toEqual({ type: 'validation_error', code: 'invalid_choice', detail: '"binary" is not a valid choice.', attr: 'plugin_type' });
    for (const [field, value] of [['name', 5], ['is_global', 'yes'], ['capabilities', 'x'], ['metrics', []], ['public_jobs', 1], ['config_schema', 'x'], ['tag', {}], ['plugin_type', 3], ['config_schema', null]] as const) {
      const res = await c.api('post', g('pipeline_destinations')).send({ [field]: value }).expect(400);
      expect(res.body).toMatchObject({ type: 'validation_error', attr: field });
    }
    const methods = await c.api('post', g('pipeline_destinations')).send({ capabilities: { methods: 'onEvent' } }).expect(400);
    expect(methods.body.attr).toBe('capabilities__methods');
    const url = await c.api('post', g('pipeline_destinations')).send({ plugin_type: 'local', url: 'https://x' }).expect(400);
    expect(url.body.attr).toBe('url');
    const local = await c.api('post', g('pipeline_destinations')).send({ plugin_type: 'local', url: 'file:../plugin' }).expect(201);
    const patch = await c.api('patch', `${g('pipeline_destinations')}${local.body.id}/`).send({ capabilities: { scheduled_tasks: ['runEveryDay'] } }).expect(400);
    expect(patch.body.attr).toBe('capabilities');
    const patchType = await c.api('patch', `${g('pipeline_destinations')}${local.body.id}/`).send({ plugin_type: 'nope' }).expect(400);
    expect(patchType.body.attr).toBe('plugin_type');
  });

  it('updates and uninstalls through the group', async () => {
    const p = await c.api('post', g('pipeline_import_apps')).send({ name: 'Importer', plugin_type: 'repository' }).expect(201);
    const u = `${g('pipeline_import_apps')}${p.body.id}/`;
    const patched = await c.api('patch', u).send({ name: 'Renamed', description: 'd', capabilities: { scheduled_tasks: ['runEveryDay'] }, url: 'https://ignored' }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', description: 'd', capabilities: { scheduled_tasks: ['runEveryDay'] }, url: null });
    expect(patched.headers.etag).toBeDefined();
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.body.updated_at));
    expect((await c.api('delete', u).expect(204)).text).toBe('');
    await c.api('get', u).expect(404);
    await c.api('delete', u).expect(404);
    await c.api('get', `${g('pipeline_import_apps')}abc/`).expect(404);
  });

  it('paginates lists', async () => {
    const org = (await c.api('post', '/api/organizations/').send({ name: 'Paging org' })).body.id;
    for (let i = 0; i < 3; i++) await c.api('post', g('pipeline_transformations', org)).send({ name: `t${i}` }).expect(201);
    const page = await c.api('get', `${g('pipeline_transformations', org)}?limit=2`).expect(200);
    expect(page.body.count).toBe(3);
    expect(page.body.results.map((p: any) => p.name)).toEqual(['t0', 't1']);
    expect(page.body.next).toMatch(/offset=2/);
    expect(page.body.previous).toBeNull();
  });

  it('answers the no-body actions with an empty 200 and records what they did', async () => {
    const p = await c.api('post', g('pipeline_destinations')).send({ name: 'Actions', plugin_type: 'custom', tag: 'v1' }).expect(201);
    const u = `${g('pipeline_destinations')}${p.body.id}/`;
    for (const path of ['check_for_updates/', 'source/']) expect((await c.api('get', `${u}${path}`).expect(200)).text).toBe('');
    const check = await c.api('get', `${u}update_check/`).expect(200);
    expect(check.body).toMatchObject({ tag: 'v1', latest_tag: 'v1', update_available: false, checked_at: expect.stringMatching(/Z$/), plugin: { id: p.body.id, latest_tag: 'v1' } });

    const source = await c.api('patch', `${u}update_source/`).send({ 'index.ts': 'export function onEvent() {}', 'plugin.json': '{}', name: 'ignored update field' }).expect(200);
    expect(source.text).toBe('');
    expect((await c.api('get', `${u}source_files/`).expect(200)).body).toEqual({ 'index.ts': 'export function onEvent() {}', 'plugin.json': '{}' });
    await c.api('patch', `${u}update_source/`).send({ 'plugin.json': null, 'README.md': '# hi' }).expect(200);
    expect((await c.api('get', `${u}source_files/`).expect(200)).body).toEqual({ 'index.ts': 'export function onEvent() {}', 'README.md': '# hi' });
    const badFile = await c.api('patch', `${u}update_source/`).send({ 'index.ts': 5 }).expect(400);
    expect(badFile.body.attr).toBe('index.ts');

    expect((await c.api('post', `${u}upgrade/`).send({ name: 'ignored' }).expect(200)).text).toBe('');
    expect((await c.api('get', u)).body.name).toBe('Actions');
    for (const path of ['activity/', 'exports_unsubscribe_configs/', 'repository/', 'unused/']) {
      expect((await c.api('get', `${g('pipeline_destinations')}${path}`).expect(200)).text).toBe('');
    }
    const activity = await c.api('get', `${g('pipeline_destinations')}activity_log/?limit=6`).expect(200);
    expect(activity.body.results.map((a: any) => a.activity)).toEqual(['upgraded', 'source_updated', 'source_updated', 'checked_for_updates', 'installed', expect.any(String)]);
    expect(activity.body.results[0]).toMatchObject({
      scope: 'Plugin',
      item_id: String(p.body.id),
      detail: { name: 'Actions', from_tag: 'v1', to_tag: 'v1', redownloaded: true },
      user: expect.objectContaining({ email: 'admin@localhost' }),
    });
    expect(activity.body.results[2].detail.files).toEqual({ 'index.ts': 'written', 'plugin.json': 'written' });
    const unused = await c.api('get', `${g('pipeline_destinations')}unused_ids/`).expect(200);
    expect(unused.body).toContain(p.body.id);
  });

  it('does not re-download source and local plugins on upgrade', async () => {
    const p = await c.api('post', g('pipeline_destinations')).send({ plugin_type: 'source', tag: 'abc' }).expect(201);
    await c.api('post', `${g('pipeline_destinations')}${p.body.id}/upgrade/`).expect(200);
    const activity = await c.api('get', `${g('pipeline_destinations')}activity_log/?limit=1`).expect(200);
    expect(activity.body.results[0]).toMatchObject({ activity: 'upgraded', item_id: String(p.body.id), detail: { redownloaded: false, to_tag: 'abc' } });
  });

  it('applies the global-plugin and other-organization rules', async () => {
    const global = await c.api('post', g('pipeline_destinations', otherOrg)).send({ name: 'Shared', is_global: true }).expect(201);
    const local = await c.api('post', g('pipeline_destinations', otherOrg)).send({ name: 'Private' }).expect(201);
    const list = await c.api('get', g('pipeline_destinations')).expect(200);
    const listed = list.body.results.map((p: any) => p.id);
    expect(listed).toContain(global.body.id);
    expect(listed).not.toContain(local.body.id);
    const seen = await c.api('get', `${g('pipeline_destinations')}${global.body.id}/`).expect(200);
    expect(seen.body).toMatchObject({ is_global: true, organization_id: otherOrg, organization_name: 'Other org' });
    await c.api('get', `${g('pipeline_destinations')}${local.body.id}/`).expect(404);

    const managed = { type: 'authentication_error', code: 'permission_denied', detail: 'This plugin installation is managed by another organization', attr: null };
    expect((await c.api('patch', `${g('pipeline_destinations')}${global.body.id}/`).send({ name: 'x' }).expect(403)).body).toEqual(managed);
    expect((await c.api('delete', `${g('pipeline_destinations')}${global.body.id}/`).expect(403)).body).toEqual(managed);
    for (const [method, path] of [['get', 'check_for_updates/'], ['get', 'source/'], ['patch', 'update_source/'], ['post', 'upgrade/']] as const) {
      await c.api(method, `${g('pipeline_destinations')}${global.body.id}/${path}`).send({}).expect(404);
    }
    await c.api('patch', `${g('pipeline_destinations')}${local.body.id}/`).send({ name: 'x' }).expect(404);

    const deleteGlobal = await c.api('delete', `${g('pipeline_destinations', otherOrg)}${global.body.id}/`).expect(400);
    expect(deleteGlobal.body).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'This plugin is marked as global! Make it local before uninstallation', attr: null });
    await c.api('patch', `${g('pipeline_destinations', otherOrg)}${global.body.id}/`).send({ is_global: false }).expect(200);
    await c.api('get', `${g('pipeline_destinations')}${global.body.id}/`).expect(404);
    await c.api('delete', `${g('pipeline_destinations', otherOrg)}${global.body.id}/`).expect(204);
  });

  it('requires plugin:read for reads and GET actions, plugin:write for the rest', async () => {
    const p = await c.api('post', g('pipeline_destinations')).send({ name: 'Scoped' }).expect(201);
    const u = `${g('pipeline_destinations')}${p.body.id}/`;
    const reader = await addUser(c, { organizationId: c.organizationId, level: 1, scopes: ['plugin:read'] });
    for (const path of [g('pipeline_destinations'), u, `${u}check_for_updates/`, `${u}source/`, `${u}source_files/`, `${u}update_check/`, ...['activity/', 'activity_log/', 'exports_unsubscribe_configs/', 'repository/', 'unused/', 'unused_ids/'].map((x) => `${g('pipeline_destinations')}${x}`)]) {
      await c.api('get', path, reader.key).expect(200);
    }
    const missing = (scope: string) => ({ type: 'authentication_error', code: 'permission_denied', detail: `API key missing required scope '${scope}'`, attr: null });
    expect((await c.api('post', g('pipeline_destinations'), reader.key).send({}).expect(403)).body).toEqual(missing('plugin:write'));
    expect((await c.api('patch', u, reader.key).send({}).expect(403)).body).toEqual(missing('plugin:write'));
    await c.api('delete', u, reader.key).expect(403);
    await c.api('patch', `${u}update_source/`, reader.key).send({}).expect(403);
    await c.api('post', `${u}upgrade/`, reader.key).expect(403);
    const none = await addUser(c, { organizationId: c.organizationId, level: 1, scopes: ['organization:read'] });
    expect((await c.api('get', g('pipeline_destinations'), none.key).expect(403)).body).toEqual(missing('plugin:read'));
    await c.api('get', `${u}source/`, none.key).expect(403);
    const writer = await addUser(c, { organizationId: c.organizationId, level: 1, scopes: ['plugin:write'] });
    await c.api('get', u, writer.key).expect(200);
    await c.api('patch', u, writer.key).send({ name: 'by writer' }).expect(200);
    const outsider = await addUser(c);
    await c.api('get', g('pipeline_destinations'), outsider.key).expect(403);
  });
});
