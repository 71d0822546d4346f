import { loginSessionsProjection } from '../../projections/login-sessions';
import { organizationInvitesProjection } from '../../projections/organization-invites';
import { membershipId, organizationMembersProjection } from '../../projections/organization-members';
import { organizationsProjection } from '../../projections/organizations';
import { personalApiKeysProjection } from '../../projections/personal-api-keys';
import { applyEvent, documentKey, ProjectedEvent, Projection } from '../../projections/projection';
import { projectsProjection } from '../../projections/projects';
import { usersProjection } from '../../projections/users';
import type { Doc } from '../../src/readstore/port';

const ORG = '11111111-1111-4111-8111-111111111111';
const at = (n: number) => `2026-01-0${n}T00:00:00.000Z`;

/** The identity history of one organization, as the streams record it. */
function history(): ProjectedEvent[] {
  const raw: [string, string, any][] = [
    [`organization-${ORG}`, 'OrganizationCreated', { id: ORG, name: 'Acme', slug: 'acme', createdBy: 1, pluginsAccessLevel: 9, at: at(1) }],
    [`organization-${ORG}`, 'OrganizationMemberJoined', { membershipId: 'm1', userId: 1, userUuid: 'u1', level: 15, at: at(1) }],
    ['project-7', 'ProjectCreated', { id: 7, uuid: 'p7', organizationId: ORG, name: 'P', apiToken: 'phc_old', at: at(1) }],
    [`organization-${ORG}`, 'OrganizationUpdated', { name: 'Acme 2', enforce2fa: true, at: at(2) }],
    ['project-7', 'ProjectUpdated', { organizationId: ORG, name: 'P2', at: at(2) }],
    ['project-7', 'ProjectTokenReset', { organizationId: ORG, apiToken: 'phc_new', at: at(2) }],
    [`organization-${ORG}`, 'OrganizationInviteCreated', { invite: { id: 'i1', targetEmail: 'a@x.io', firstName: '', level: 8, message: null, privateProjectAccess: [], sendEmail: true, createdBy: 1, createdAt: at(2) }, at: at(2) }],
    [`organization-${ORG}`, 'OrganizationInviteCreated', { invite: { id: 'i2', targetEmail: 'b@x.io', firstName: '', level: 1, message: null, privateProjectAccess: [], sendEmail: true, createdBy: 1, createdAt: at(2) }, at: at(2) }],
    [`organization-${ORG}`, 'OrganizationInviteAccepted', { inviteId: 'i1', acceptedBy: 2, at: at(3) }],
    [`organization-${ORG}`, 'OrganizationMemberJoined', { membershipId: 'm2', userId: 2, userUuid: 'u2', level: 8, at: at(3) }],
    [`organization-${ORG}`, 'OrganizationMemberJoined', { membershipId: 'm3', userId: 3, userUuid: 'u3', level: 1, at: at(3) }],
    [`organization-${ORG}`, 'OrganizationMemberLevelChanged', { userId: 3, level: 8, at: at(4) }],
    [`organization-${ORG}`, 'OrganizationMemberRemoved', { userId: 2, at: at(4) }],
    ['personal_api_key-k', 'PersonalApiKeyCreated', { id: 'k', userId: 1, label: 'l', secureValue: 'h', maskValue: 'm', scopes: ['*'], scopedOrganizations: [], scopedTeams: [], at: at(4) }],
    ['login_session-s', 'SessionStarted', { id: 's', userId: 1, tokenHash: 'th', expiresAt: at(9), at: at(4) }],
    ['personal_api_key-k', 'PersonalApiKeyUsed', { id: 'k', at: at(5) }],
    ['user-1', 'UserSignedUp', { id: 1, uuid: 'u1', email: 'a@x.io', firstName: 'A', lastName: '', distinctId: 'd1', passwordHash: 'scrypt$x', at: at(1) }],
    ['user-2', 'UserSignedUp', { id: 2, uuid: 'u2', email: 'b@x.io', firstName: 'B', lastName: '', distinctId: 'd2', passwordHash: 'scrypt$y', at: at(3) }],
    ['user-2', 'UserSignUpCancelled', { id: 2, at: at(3) }],
  ];
  return raw.map(([streamId, type, data], i) => ({ streamId, type, data, metadata: {}, revision: 0n, position: BigInt(i + 1) }));
}

const deletion = (position: number): ProjectedEvent[] => [
  {
    streamId: `organization-${ORG}`,
    type: 'OrganizationDeleted',
    data: { memberUserIds: [1, 3], inviteIds: ['i2'], projectIds: [7], at: at(5) },
    metadata: {},
    revision: 0n,
    position: BigInt(position),
  },
  { streamId: 'personal_api_key-k', type: 'PersonalApiKeyDeleted', data: { id: 'k', userId: 1, at: at(5) }, metadata: {}, revision: 0n, position: BigInt(position + 1) },
  { streamId: 'login_session-s', type: 'SessionEnded', data: { id: 's', userId: 1, at: at(5) }, metadata: {}, revision: 0n, position: BigInt(position + 2) },
];

const projections = [usersProjection, organizationsProjection, organizationMembersProjection, projectsProjection, organizationInvitesProjection, personalApiKeysProjection, loginSessionsProjection];

/** Folds the events the projection follows, each applied twice: the second application must change nothing. */
function fold(projection: Projection, events: ProjectedEvent[], docs = new Map<string, Doc | null>()) {
  for (const event of events) {
    const [category] = event.streamId.split('-');
    if (!projection.categories.includes(category)) continue;
    applyEvent(projection, event, docs);
    const snapshot = JSON.stringify([...docs]);
    expect(applyEvent(projection, event, docs)).toEqual([]);
    expect(JSON.stringify([...docs])).toBe(snapshot);
  }
  return docs;
}
const doc = (docs: Map<string, Doc | null>, collection: string, id: string | number) => docs.get(documentKey({ collection, id })) ?? null;

describe('identity read models', () => {
  it('apply every event idempotently', () => {
    for (const p of projections) fold(p, [...history(), ...deletion(100)]);
  });

  it('organizations: settings, member count and teams follow the events', () => {
    const docs = fold(organizationsProjection, history());
    expect(doc(docs, 'organizations', ORG)).toMatchObject({
      name: 'Acme 2',
      enforce_2fa: true,
      updated_at: at(2),
      member_count: 2,
      teams: [{ id: 7, name: 'P2', api_token: 'phc_new' }],
    });
    fold(organizationsProjection, deletion(100), docs);
    expect(doc(docs, 'organizations', ORG)).toBeNull();
  });

  it('members: levels change, removed and deleted members vanish', () => {
    const docs = fold(organizationMembersProjection, history());
    expect(doc(docs, 'organization_members', membershipId(ORG, 3))).toMatchObject({ level: 8, updated_at: at(4), joined_at: at(3) });
    expect(doc(docs, 'organization_members', membershipId(ORG, 2))).toBeNull();
    fold(organizationMembersProjection, deletion(100), docs);
    expect([...docs.values()].filter(Boolean)).toEqual([]);
  });

  it('projects: the new token replaces the old, and the organization takes them along', () => {
    const docs = fold(projectsProjection, history());
    expect(doc(docs, 'projects', 7)).toMatchObject({ name: 'P2', api_token: 'phc_new', updated_at: at(2) });
    fold(projectsProjection, deletion(100), docs);
    expect(doc(docs, 'projects', 7)).toBeNull();
  });

  it('invites: open ones listed, used and deleted ones gone', () => {
    const docs = fold(organizationInvitesProjection, history());
    expect(doc(docs, 'organization_invites', 'i1')).toBeNull();
    expect(doc(docs, 'organization_invites', 'i2')).toMatchObject({ organization_id: ORG, target_email: 'b@x.io', level: 1, emailing_attempt_made: false, created_by: 1 });
    fold(organizationInvitesProjection, deletion(100), docs);
    expect(doc(docs, 'organization_invites', 'i2')).toBeNull();
  });

  it('users: a cancelled signup leaves no user behind', () => {
    const docs = fold(usersProjection, history());
    expect(doc(docs, 'users', 1)).toMatchObject({ email: 'a@x.io' });
    expect(doc(docs, 'users', 2)).toBeNull();
  });

  it('keys and sessions disappear when deleted or ended', () => {
    const keys = fold(personalApiKeysProjection, history());
    const sessions = fold(loginSessionsProjection, history());
    expect(doc(keys, 'personal_api_keys', 'k')).toMatchObject({ secure_value: 'h', last_used_at: at(5) });
    expect(doc(sessions, 'login_sessions', 's')).toMatchObject({ token_hash: 'th', user_id: 1 });
    fold(personalApiKeysProjection, deletion(100), keys);
    fold(loginSessionsProjection, deletion(100), sessions);
    expect(doc(keys, 'personal_api_keys', 'k')).toBeNull();
    expect(doc(sessions, 'login_sessions', 's')).toBeNull();
  });
});
