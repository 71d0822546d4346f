import request from 'supertest';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';
import { inviteAndSignUp, withClockAhead } from '../support/identity';

const INVITE_FIELDS = [
  'created_at', 'created_by', 'emailing_attempt_made', 'first_name', 'id', 'is_expired', 'level', 'message',
  'private_project_access', 'send_email', 'target_email', 'updated_at',
].sort();

describe('organization invites', () => {
  let c: TestChronicle;
  let orgId: string;
  let projectId: number;
  const url = (suffix = '') => `/api/organizations/${orgId}/invites/${suffix}`;

  beforeAll(async () => {
    c = await startTestChronicle();
    const org = (await c.api('post', '/api/organizations/').send({ name: 'Inviting' }).expect(201)).body;
    orgId = org.id;
    projectId = org.teams[0].id;
  });
  afterAll(() => c.stop());

  it('creates an invite in the seed shape, e-mail domain lower-cased, no e-mail attempted', async () => {
    const res = await c.api('post', url()).send({ target_email: 'Jane.Doe@EXAMPLE.org', first_name: 'Jane', message: 'hi', private_project_access: [{ id: projectId, level: 'admin' }] }).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(INVITE_FIELDS);
    expect(res.body).toMatchObject({
      target_email: 'Jane.Doe@example.org',
      first_name: 'Jane',
      level: 1,
      message: 'hi',
      is_expired: false,
      emailing_attempt_made: false,
      send_email: true,
      private_project_access: [{ id: projectId, level: 'admin' }],
      created_by: { email: 'admin@localhost' },
    });
    const list = await c.api('get', url()).expect(200);
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.body.results[0].id).toBe(res.body.id);
  });

  it('validates e-mail, level, project access and types', async () => {
    expect((await c.api('post', url()).send({}).expect(400)).body).toMatchObject({ code: 'required', attr: 'target_email' });
    expect((await c.api('post', url()).send({ target_email: 'nope' }).expect(400)).body).toMatchObject({ detail: 'Enter a valid email address.', attr: 'target_email' });
    expect((await c.api('post', url()).send({ target_email: 'a@b.c', level: 5 }).expect(400)).body).toMatchObject({ code: 'invalid_choice', attr: 'level' });
    expect((await c.api('post', url()).send({ target_email: 'a@b.c', send_email: 'x' }).expect(400)).body).toMatchObject({ attr: 'send_email' });
    const foreign = await c.api('post', url()).send({ target_email: 'a@b.c', private_project_access: [{ id: c.projectId, level: 'member' }] }).expect(400);
    expect(foreign.body).toEqual({
      type: 'validation_error',
      code: 'invalid_input',
      detail: 'Project does not exist on this organization, or it is private and you do not have access to it.',
      attr: 'private_project_access',
    });
    expect((await c.api('post', url()).send({ target_email: 'a@b.c', private_project_access: [{ id: projectId, level: 'god' }] }).expect(400)).body.attr).toBe(
      'private_project_access__0__level',
    );
  });

  it('refuses inviting above one\'s own level and inviting an existing member', async () => {
    const member = await inviteAndSignUp(c, { organizationId: orgId, level: 1 });
    const above = await member.call('post', url()).send({ target_email: 'boss@example.com', level: 8 }).expect(403);
    expect(above.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: 'You cannot invite a user with a higher permission level than your own.', attr: null });
    await member.call('post', url()).send({ target_email: 'peer@example.com', level: 1 }).expect(201);
    const existing = await c.api('post', url()).send({ target_email: member.email.replace('@example.com', '@EXAMPLE.COM') }).expect(400);
    expect(existing.body).toMatchObject({ code: 'invalid_input', detail: 'A user with this email address already belongs to the organization.', attr: null });
  });

  it('replaces an older invite for the same e-mail', async () => {
    const first = await c.api('post', url()).send({ target_email: 'twice@example.com', level: 1 }).expect(201);
    const second = await c.api('post', url()).send({ target_email: 'twice@EXAMPLE.com', level: 8 }).expect(201);
    const list = await c.api('get', url()).expect(200);
    const ids = list.body.results.filter((i: { target_email: string }) => i.target_email === 'twice@example.com').map((i: { id: string }) => i.id);
    expect(ids).toEqual([second.body.id]);
    const old = await request(c.app).post(`/api/signup/${first.body.id}/`).send({ first_name: 'Old', password: 'long enough pw' }).expect(400);
    expect(old.body.detail).toBe('The provided invite ID is not valid.');
  });

  it('combine_pending_invites: the highest live level and the merged project access; without it the new invite is as asked', async () => {
    const second = (await c.api('post', `/api/organizations/${orgId}/projects/`).send({ name: 'Second' }).expect(201)).body.id;
    await c.api('post', url()).send({ target_email: 'merge@example.com', level: 8, private_project_access: [{ id: projectId, level: 'admin' }] }).expect(201);
    const member = await inviteAndSignUp(c, { organizationId: orgId, level: 1 });
    const combined = await member.call('post', url()).send({ target_email: 'merge@example.com', level: 1, combine_pending_invites: true, private_project_access: [{ id: second, level: 'member' }, { id: projectId, level: 'member' }] }).expect(201);
    expect(combined.body).toMatchObject({ level: 8, created_by: { email: member.email } });
    expect(combined.body).not.toHaveProperty('combine_pending_invites');
    expect([...combined.body.private_project_access].sort((a: { id: number }, b: { id: number }) => a.id - b.id)).toEqual([
      { id: projectId, level: 'admin' },
      { id: second, level: 'member' },
    ]);
    const listed = (await c.api('get', url()).expect(200)).body.results.filter((i: { target_email: string }) => i.target_email === 'merge@example.com');
    expect(listed.map((i: { id: string }) => i.id)).toEqual([combined.body.id]);
    const plain = await c.api('post', url()).send({ target_email: 'merge@example.com', level: 1 }).expect(201);
    expect(plain.body).toMatchObject({ level: 1, private_project_access: [] });
    expect((await c.api('post', url()).send({ target_email: 'x@example.com', combine_pending_invites: 'yes' }).expect(400)).body.attr).toBe('combine_pending_invites');
  });

  it('re-creating an invite for the same e-mail starts its three days again, even once expired', async () => {
    const old = await c.api('post', url()).send({ target_email: 'resend@example.com', level: 8, combine_pending_invites: true }).expect(201);
    await withClockAhead(4 * 24 * 3600 * 1000, async () => {
      const listed = (await c.api('get', url()).expect(200)).body.results.find((i: { id: string }) => i.id === old.body.id);
      expect(listed.is_expired).toBe(true);
      // An expired invite adds nothing to a combined one: the level is the one asked for now.
      const fresh = await c.api('post', url()).send({ target_email: 'resend@example.com', combine_pending_invites: true }).expect(201);
      expect(fresh.body).toMatchObject({ is_expired: false, level: 1 });
      expect(Date.parse(fresh.body.created_at)).toBeGreaterThan(Date.parse(old.body.created_at) + 3 * 24 * 3600 * 1000);
      const signup = await request(c.app).post(`/api/signup/${fresh.body.id}/`).send({ first_name: 'Again', password: 'long enough pw' }).expect(201);
      expect(signup.body.organizations).toEqual([expect.objectContaining({ id: orgId, membership_level: 1 })]);
      await request(c.app).post(`/api/signup/${old.body.id}/`).send({ first_name: 'Old', password: 'long enough pw' }).expect(400);
    });
  });

  it('deletes an invite (204, gone, unusable), 404 through another organization', async () => {
    const inv = await c.api('post', url()).send({ target_email: 'gone@example.com' }).expect(201);
    const otherInv = await c.api('post', `/api/organizations/${c.organizationId}/invites/`).send({ target_email: 'elsewhere@example.com' }).expect(201);
    await c.api('delete', url(`${otherInv.body.id}/`)).expect(404);
    await c.api('delete', url('not-a-uuid/')).expect(404);
    const res = await c.api('delete', url(`${inv.body.id}/`)).expect(204);
    expect(res.text).toBe('');
    await c.api('delete', url(`${inv.body.id}/`)).expect(404);
    await request(c.app).post(`/api/signup/${inv.body.id}/`).send({ first_name: 'G', password: 'long enough pw' }).expect(400);
  });

  it('bulk: 200 with an empty body, all or nothing, at most 20', async () => {
    const before = (await c.api('get', url()).expect(200)).body.count;
    const ok = await c.api('post', url('bulk/')).send([{ target_email: 'b1@example.com' }, { target_email: 'b2@example.com', level: 8 }]).expect(200);
    expect(ok.text).toBe('');
    expect((await c.api('get', url()).expect(200)).body.count).toBe(before + 2);
    const bad = await c.api('post', url('bulk/')).send([{ target_email: 'b3@example.com' }, { target_email: 'broken' }]).expect(400);
    expect(bad.body).toMatchObject({ attr: '1__target_email' });
    expect((await c.api('get', url()).expect(200)).body.count).toBe(before + 2);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ target_email: `many${i}@example.com` }));
    const refused = await c.api('post', url('bulk/')).send(tooMany).expect(400);
    expect(refused.body).toEqual({ type: 'validation_error', code: 'max_length', detail: 'A maximum of 20 invites can be sent in a single request.', attr: null });
    await c.api('post', url('bulk/')).send(tooMany.slice(0, 20)).expect(200);
    await c.api('post', url('bulk/')).send({ target_email: 'single@example.com' }).expect(200);
    expect((await c.api('get', url()).expect(200)).body.count).toBe(before + 23);
    await c.api('post', url('bulk/')).send([{ target_email: 'admin@localhost' }]).expect(400);
  });

  it('is 403 to callers outside the organization', async () => {
    const stranger = await addUser(c);
    const res = await c.api('get', url(), stranger.key).expect(403);
    expect(res.body.code).toBe('permission_denied');
    await c.api('post', url(), stranger.key).send({ target_email: 'x@example.com' }).expect(403);
    await c.api('post', url('bulk/'), stranger.key).send([]).expect(403);
  });
});
