import { organizationDecider } from '../../domain/organization';
import type { OrganizationEvent } from '../../domain/organization';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(organizationDecider);
const at = '2026-01-01T00:00:00.000Z';
const ORG = '11111111-1111-4111-8111-111111111111';

const created: OrganizationEvent[] = [
  { type: 'OrganizationCreated', data: { id: ORG, name: 'Acme', slug: 'acme', createdBy: 1, pluginsAccessLevel: 9, at } },
  { type: 'OrganizationMemberJoined', data: { membershipId: 'm1', userId: 1, userUuid: 'u1', level: 15, at } },
];
const joined = (userId: number, level: number): OrganizationEvent => ({
  type: 'OrganizationMemberJoined',
  data: { membershipId: `m${userId}`, userId, userUuid: `u${userId}`, level, at },
});
const team = [...created, joined(2, 8), joined(3, 1), joined(4, 1)];
const denied = (detail: string) => ({ kind: 'permission' as const, code: 'permission_denied', detail });

describe('organization aggregate', () => {
  it('creates with the creator as owner and root plugin access', () => {
    spec
      .given([])
      .when({ type: 'CreateOrganization', data: { id: ORG, name: 'Acme', slug: 'acme', owner: { userId: 1, userUuid: 'u1', membershipId: 'm1' } }, metadata: meta(at) })
      .then(created);
    spec.given(created).when({ type: 'CreateOrganization', data: { id: ORG, name: 'A', slug: 'a', owner: { userId: 1, userUuid: 'u1', membershipId: 'm' } }, metadata: meta(at) }).thenThrows({ kind: 'conflict' });
  });

  it('lets admins update and only owners delete, with the reference text', () => {
    spec.given(team).when({ type: 'UpdateOrganization', data: { name: 'New' }, metadata: meta(at, 2) }).then([{ type: 'OrganizationUpdated', data: { name: 'New', at } }]);
    spec.given(team).when({ type: 'UpdateOrganization', data: { name: 'New' }, metadata: meta(at, 3) }).thenThrows(denied('Your organization access level is insufficient.'));
    spec.given(team).when({ type: 'DeleteOrganization', data: { projectIds: [5] }, metadata: meta(at, 2) }).thenThrows(denied('Your organization access level is insufficient.'));
    spec
      .given(team)
      .when({ type: 'DeleteOrganization', data: { projectIds: [5] }, metadata: meta(at, 1) })
      .then([{ type: 'OrganizationDeleted', data: { memberUserIds: [1, 2, 3, 4], inviteIds: [], projectIds: [5], at } }]);
    spec.given([...team, { type: 'OrganizationDeleted', data: { memberUserIds: [], inviteIds: [], projectIds: [], at } }])
      .when({ type: 'UpdateOrganization', data: { name: 'x' }, metadata: meta(at, 1) })
      .thenThrows({ kind: 'not_found' });
  });

  it('refuses non-members', () => {
    spec.given(team).when({ type: 'UpdateOrganization', data: {}, metadata: meta(at, 99) }).thenThrows({ kind: 'permission' });
  });

  describe('member levels (§9)', () => {
    const change = (actor: number, userId: number, level: number) => spec.given(team).when({ type: 'ChangeMemberLevel', data: { userId, level }, metadata: meta(at, actor) });
    it('applies every rule in the reference order', () => {
      change(2, 2, 1).thenThrows(denied("You can't change your own access level."));
      change(2, 3, 15).thenThrows(denied("You can only make another member owner if you're this organization's owner."));
      change(3, 4, 8).thenThrows(denied('You can only change access level of others to lower or equal to your current one.'));
      change(3, 4, 1).thenThrows(denied('You can only edit others if you are an admin.'));
      change(2, 1, 8).thenThrows(denied('You can only edit others with level lower or equal to you.'));
      change(2, 99, 1).thenThrows({ kind: 'not_found' });
    });
    it('changes a level, allows several owners, and does nothing for the same level', () => {
      change(2, 3, 8).then([{ type: 'OrganizationMemberLevelChanged', data: { userId: 3, level: 8, at } }]);
      change(1, 2, 15).then([{ type: 'OrganizationMemberLevelChanged', data: { userId: 2, level: 15, at } }]);
      change(1, 3, 1).thenNothingHappened();
    });
    it('removes others under the same rules, lets anyone leave, never removes an owner', () => {
      const remove = (actor: number, userId: number) => spec.given(team).when({ type: 'RemoveMember', data: { userId }, metadata: meta(at, actor) });
      remove(2, 3).then([{ type: 'OrganizationMemberRemoved', data: { userId: 3, at } }]);
      remove(3, 3).then([{ type: 'OrganizationMemberRemoved', data: { userId: 3, at } }]);
      remove(3, 4).thenThrows(denied('You can only edit others if you are an admin.'));
      remove(1, 1).thenThrows({ kind: 'validation', code: 'invalid_input', detail: 'Cannot leave the organization as its owner!' });
      spec.given([...team, joined(5, 15)]).when({ type: 'RemoveMember', data: { userId: 5 }, metadata: meta(at, 1) }).thenThrows({ detail: 'Cannot leave the organization as its owner!' });
    });
  });
});
