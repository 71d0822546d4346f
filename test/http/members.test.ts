import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';
import { inviteAndSignUp } from '../support/identity';

const denied = (detail: string) => ({ type: 'authentication_error', code: 'permission_denied', detail, attr: null });

describe('organization members', () => {
  let c: TestChronicle;
  let orgId: string;
  let admin: Awaited<ReturnType<typeof inviteAndSignUp>>;
  let member: Awaited<ReturnType<typeof inviteAndSignUp>>;
  let other: Awaited<ReturnType<typeof inviteAndSignUp>>;
  let ownerUuid: string;
  const url = (uuid = '') => `/api/organizations/${orgId}/members/${uuid ? `${uuid}/` : ''}`;

  beforeAll(async () => {
    c = await startTestChronicle();
    orgId = (await c.api('post', '/api/organizations/').send({ name: 'Members Inc' }).expect(201)).body.id;
    admin = await inviteAndSignUp(c, { organizationId: orgId, level: 8, firstName: 'Ada' });
    member = await inviteAndSignUp(c, { organizationId: orgId, level: 1, firstName: 'Mel' });
    other = await inviteAndSignUp(c, { organizationId: orgId, level: 1, firstName: 'Otto' });
    ownerUuid = (await c.api('get', '/api/users/@me/').expect(200)).body.uuid;
  });
  afterAll(() => c.stop());

  it('lists members in the seed shape, newest first, paginated', async () => {
    const res = await c.api('get', url()).expect(200);
    expect(res.body).toMatchObject({ count: 4, next: null, previous: null });
    expect(res.body.results.map((m: { user: { first_name: string } }) => m.user.first_name)).toEqual(['Otto', 'Mel', 'Ada', 'Admin']);
    const first = res.body.results[0];
    expect(Object.keys(first).sort()).toEqual(['has_social_auth', 'id', 'is_2fa_enabled', 'joined_at', 'level', 'updated_at', 'user']);
    expect(Object.keys(first.user).sort()).toEqual(['distinct_id', 'email', 'first_name', 'hedgehog_config', 'id', 'is_email_verified', 'last_name', 'uuid']);
    expect(first).toMatchObject({ level: 1, is_2fa_enabled: false, has_social_auth: false, user: { uuid: other.user.uuid, email: other.email } });
    const page = await c.api('get', `${url()}?limit=2&offset=1`).expect(200);
    expect(page.body.results).toHaveLength(2);
    expect(page.body.next).toContain('offset=3');
    expect(page.body.previous).not.toContain('offset=');
    const asc = await c.api('get', `${url()}?order=joined_at`).expect(200);
    expect(asc.body.results[0].user.first_name).toBe('Admin');
    const byEmail = await member.call('get', `${url()}?email=${encodeURIComponent(admin.email)}`).expect(200);
    expect(byEmail.body.results.map((m: { user: { uuid: string } }) => m.user.uuid)).toEqual([admin.user.uuid]);
  });

  it('applies every level rule with the reference texts', async () => {
    expect((await admin.call('patch', url(admin.user.uuid)).send({ level: 1 }).expect(403)).body).toEqual(denied("You can't change your own access level."));
    expect((await admin.call('patch', url('@me')).send({ level: 1 }).expect(403)).body).toEqual(denied("You can't change your own access level."));
    expect((await admin.call('patch', url(member.user.uuid)).send({ level: 15 }).expect(403)).body).toEqual(
      denied("You can only make another member owner if you're this organization's owner."),
    );
    expect((await member.call('patch', url(other.user.uuid)).send({ level: 8 }).expect(403)).body).toEqual(
      denied('You can only change access level of others to lower or equal to your current one.'),
    );
    expect((await member.call('patch', url(other.user.uuid)).send({ level: 1 }).expect(403)).body).toEqual(denied('You can only edit others if you are an admin.'));
    expect((await admin.call('patch', url(ownerUuid)).send({ level: 8 }).expect(403)).body).toEqual(denied('You can only edit others with level lower or equal to you.'));
    expect((await admin.call('patch', url(member.user.uuid)).send({ level: 3 }).expect(400)).body).toMatchObject({ code: 'invalid_choice', attr: 'level' });
    expect((await admin.call('patch', url(member.user.uuid)).send({}).expect(400)).body).toMatchObject({ code: 'required', attr: 'level' });
  });

  it('lets an admin raise a member to admin, and the owner make owners', async () => {
    const res = await admin.call('patch', url(member.user.uuid)).send({ level: 8 }).expect(200);
    expect(res.body).toMatchObject({ level: 8, user: { uuid: member.user.uuid } });
    expect(res.body.updated_at > res.body.joined_at).toBe(true);
    const owner = await c.api('patch', url(member.user.uuid)).send({ level: 15 }).expect(200);
    expect(owner.body.level).toBe(15);
    const orgAsMember = await member.call('get', `/api/organizations/${orgId}/`).expect(200);
    expect(orgAsMember.body.membership_level).toBe(15);
  });

  it('removes and lets members leave, but never removes an owner', async () => {
    const owner = await c.api('delete', url(member.user.uuid)).expect(400);
    expect(owner.body).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Cannot leave the organization as its owner!', attr: null });
    expect((await c.api('delete', url(ownerUuid)).expect(400)).body.detail).toBe('Cannot leave the organization as its owner!');
    expect((await other.call('delete', url(admin.user.uuid)).expect(403)).body).toEqual(denied('You can only edit others if you are an admin.'));
    await other.call('delete', url('@me')).expect(204);
    await other.call('get', `/api/organizations/${orgId}/`).expect(403);
    const me = await other.call('get', '/api/users/@me/').expect(200);
    expect(me.body).toMatchObject({ organization: null, organizations: [] });
    const third = await inviteAndSignUp(c, { organizationId: orgId, level: 1 });
    const removed = await admin.call('delete', url(third.user.uuid)).expect(204);
    expect(removed.text).toBe('');
    const list = await c.api('get', url()).expect(200);
    expect(list.body.results.map((m: { user: { uuid: string } }) => m.user.uuid)).not.toContain(third.user.uuid);
    expect((await c.api('get', `/api/organizations/${orgId}/`).expect(200)).body.member_count).toBe(String(list.body.count));
  });

  it('is 404 for a user who is not a member of this organization, 403 for a non-member caller', async () => {
    const outsider = await addUser(c, { organizationId: c.organizationId });
    await c.api('patch', url(outsider.uuid)).send({ level: 1 }).expect(404);
    await c.api('delete', url(outsider.uuid)).expect(404);
    await c.api('patch', url('not-a-uuid')).send({ level: 1 }).expect(404);
    const res = await c.api('get', url(), outsider.key).expect(403);
    expect(res.body).toEqual(denied('You do not have permission to perform this action.'));
    await c.api('patch', url(admin.user.uuid), outsider.key).send({ level: 1 }).expect(403);
  });
});
