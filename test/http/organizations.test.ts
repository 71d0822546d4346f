import { createPersonalApiKey } from '../../src/identity/provisioning';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';
import { inviteAndSignUp } from '../support/identity';

const ORG_FIELDS = [
  'id', 'name', 'slug', 'logo_media_id', 'created_at', 'updated_at', 'membership_level', 'plugins_access_level', 'teams',
  'available_product_features', 'is_member_join_email_enabled', 'metadata', 'customer_id', 'enforce_2fa', 'member_count',
].sort();

describe('organizations', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
  });
  afterAll(() => c.stop());

  it('creates an organization: the caller is owner, it has a first project and becomes current', async () => {
    const res = await c.api('post', '/api/organizations/').send({ name: '  Acme Rockets  ', is_member_join_email_enabled: false, enforce_2fa: true }).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(ORG_FIELDS);
    expect(res.body).toMatchObject({
      name: 'Acme Rockets',
      slug: 'acme-rockets',
      membership_level: 15,
      plugins_access_level: 9,
      member_count: '1',
      is_member_join_email_enabled: false,
      enforce_2fa: true,
      logo_media_id: null,
      metadata: '',
      customer_id: '',
      available_product_features: [],
    });
    expect(res.body.teams).toEqual([expect.objectContaining({ id: expect.any(Number), name: 'Default project', api_token: expect.stringMatching(/^phc_/) })]);
    const me = await c.api('get', '/api/users/@me/').expect(200);
    expect(me.body.organization.id).toBe(res.body.id);
    expect(me.body.team.id).toBe(res.body.teams[0].id);
    const again = await c.api('post', '/api/organizations/').send({ name: 'Acme Rockets' }).expect(201);
    expect(again.body.slug).not.toBe('acme-rockets');
    expect(again.body.slug).toMatch(/^acme-rockets-/);
    const list = await c.api('get', '/api/organizations/').expect(200);
    expect(list.body.count).toBe(3);
    expect(await c.api('get', `/api/organizations/${res.body.id}/`).expect(200)).toMatchObject({ body: { id: res.body.id, membership_level: 15 } });
  });

  it('validates the body: name required and at most 64 characters, types checked', async () => {
    expect((await c.api('post', '/api/organizations/').send({}).expect(400)).body).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'name' });
    expect((await c.api('post', '/api/organizations/').send({ name: 'x'.repeat(65) }).expect(400)).body).toMatchObject({ code: 'max_length', attr: 'name' });
    expect((await c.api('post', '/api/organizations/').send({ name: '   ' }).expect(400)).body).toMatchObject({ code: 'blank', attr: 'name' });
    expect((await c.api('post', '/api/organizations/').send({ name: 'ok', enforce_2fa: 'yes' }).expect(400)).body).toMatchObject({ attr: 'enforce_2fa' });
    expect((await c.api('post', '/api/organizations/').send({ name: 'ok', logo_media_id: 'nope' }).expect(400)).body).toMatchObject({ attr: 'logo_media_id' });
    expect((await c.api('post', '/api/organizations/').set('Content-Type', 'application/json').send('{bad').expect(400)).body).toMatchObject({ code: 'parse_error' });
    expect((await c.api('patch', `/api/organizations/${c.organizationId}/`).send([1]).expect(400)).body.type).toBe('validation_error');
  });

  it('lets admins and owners PATCH, not members', async () => {
    const org = (await c.api('post', '/api/organizations/').send({ name: 'Patchable' }).expect(201)).body;
    const admin = await inviteAndSignUp(c, { organizationId: org.id, level: 8 });
    const member = await inviteAndSignUp(c, { organizationId: org.id, level: 1 });
    const denied = await member.call('patch', `/api/organizations/${org.id}/`).send({ name: 'Mine now' }).expect(403);
    expect(denied.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: 'Your organization access level is insufficient.', attr: null });
    const logo = crypto.randomUUID();
    const res = await admin.call('patch', `/api/organizations/${org.id}/`).send({ name: 'Renamed', logo_media_id: logo, is_member_join_email_enabled: false }).expect(200);
    expect(res.body).toMatchObject({ name: 'Renamed', slug: 'patchable', logo_media_id: logo, is_member_join_email_enabled: false, membership_level: 8, member_count: '3' });
    expect(res.body.updated_at > org.updated_at).toBe(true);
    expect(res.headers.etag).toBeDefined();
    const ownerView = await c.api('patch', `/api/organizations/${org.id}/`).send({ enforce_2fa: true }).expect(200);
    expect(ownerView.body).toMatchObject({ name: 'Renamed', enforce_2fa: true, membership_level: 15 });
    await c.api('patch', `/api/organizations/${org.id}/`).send({ name: 'y'.repeat(65) }).expect(400);
    await c.api('patch', `/api/organizations/${org.id}/`).set('If-Match', 'W/"0"').send({ name: 'stale' }).expect(412);
  });

  it('lets only owners DELETE; the organization then vanishes and current falls back', async () => {
    const org = (await c.api('post', '/api/organizations/').send({ name: 'Doomed' }).expect(201)).body;
    const admin = await inviteAndSignUp(c, { organizationId: org.id, level: 8 });
    const denied = await admin.call('delete', `/api/organizations/${org.id}/`).expect(403);
    expect(denied.body.detail).toBe('Your organization access level is insufficient.');
    const projectId = org.teams[0].id;
    const before = await c.api('get', '/api/users/@me/').expect(200);
    expect(before.body.organization.id).toBe(org.id);
    const res = await c.api('delete', `/api/organizations/${org.id}/`).expect(204);
    expect(res.text).toBe('');
    await c.api('get', `/api/organizations/${org.id}/`).expect(404);
    await c.api('get', `/api/projects/${projectId}/`).expect(404);
    const list = await c.api('get', '/api/organizations/').expect(200);
    expect(list.body.results.map((o: { id: string }) => o.id)).not.toContain(org.id);
    expect(list.body.count).toBe(list.body.results.length);
    const me = await c.api('get', '/api/users/@me/').expect(200);
    expect(me.body.organization.id).not.toBe(org.id);
    expect(me.body.organizations.map((o: { id: string }) => o.id)).not.toContain(org.id);
    const adminMe = await admin.call('get', '/api/users/@me/').expect(200);
    expect(adminMe.body).toMatchObject({ organization: null, team: null, organizations: [] });
    expect(await c.services.readStore.count('projects', { organization_id: org.id })).toBe(0);
    await c.api('delete', `/api/organizations/${org.id}/`).expect(404);
  });

  it('filters the list by a key\'s scoped organizations and refuses project-scoped keys', async () => {
    const other = (await c.api('post', '/api/organizations/').send({ name: 'Scoped' }).expect(201)).body;
    const me = await c.api('get', '/api/users/@me/').expect(200);
    const scoped = await createPersonalApiKey(c.services, { now: new Date().toISOString() }, { userId: me.body.id, label: 's', scopes: ['*'], scopedOrganizations: [other.id] });
    const list = await c.api('get', '/api/organizations/', scoped.value).expect(200);
    expect(list.body.results.map((o: { id: string }) => o.id)).toEqual([other.id]);
    const denied = await c.api('get', `/api/organizations/${c.organizationId}/`, scoped.value).expect(403);
    expect(denied.body.detail).toBe(`API key does not have access to the requested organization: ID ${c.organizationId}.`);
    const teamKey = await createPersonalApiKey(c.services, { now: new Date().toISOString() }, { userId: me.body.id, label: 't', scopes: ['*'], scopedTeams: [c.projectId] });
    const refused = await c.api('get', '/api/organizations/', teamKey.value).expect(403);
    expect(refused.body.detail).toBe('API keys with scoped projects are only supported on project-based endpoints.');
  });

  it('answers 403 to a non-member and 404 to an unknown organization', async () => {
    const stranger = await addUser(c);
    const res = await c.api('get', `/api/organizations/${c.organizationId}/`, stranger.key).expect(403);
    expect(res.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: 'You do not have permission to perform this action.', attr: null });
    await c.api('patch', `/api/organizations/${c.organizationId}/`, stranger.key).send({ name: 'x' }).expect(403);
    await c.api('delete', `/api/organizations/${c.organizationId}/`, stranger.key).expect(403);
    await c.api('get', `/api/organizations/${crypto.randomUUID()}/`).expect(404);
    await c.api('get', '/api/organizations/not-a-uuid/').expect(404);
    const own = await c.api('get', '/api/organizations/', stranger.key).expect(200);
    expect(own.body.count).toBe(0);
  });
});
