import { organizationDecider } from '../../domain/organization';
import type { OrganizationEvent } from '../../domain/organization';
import type { InviteInput } from '../../domain/organization/invites';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(organizationDecider);
const at = '2026-01-01T00:00:00.000Z';
const ORG = '11111111-1111-4111-8111-111111111111';

const team: OrganizationEvent[] = [
  { type: 'OrganizationCreated', data: { id: ORG, name: 'Acme', slug: 'acme', createdBy: 1, pluginsAccessLevel: 9, at } },
  { type: 'OrganizationMemberJoined', data: { membershipId: 'm1', userId: 1, userUuid: 'u1', level: 15, at } },
  { type: 'OrganizationMemberJoined', data: { membershipId: 'm2', userId: 2, userUuid: 'u2', level: 1, at } },
];
const input = (id: string, targetEmail: string, extra: Partial<InviteInput> = {}): InviteInput => ({
  id,
  targetEmail,
  firstName: '',
  level: 1,
  message: null,
  privateProjectAccess: [],
  sendEmail: true,
  existingUserId: null,
  ...extra,
});
const inviteOf = (i: InviteInput, createdBy: number, createdAt = at) => {
  const { existingUserId: _, combinePendingInvites: __, ...rest } = i;
  return { ...rest, createdBy, createdAt };
};
const invited = (i: InviteInput, createdBy = 1, when = at): OrganizationEvent => ({ type: 'OrganizationInviteCreated', data: { invite: inviteOf(i, createdBy, when), at: when } });
const invite = (invites: InviteInput[], actor = 1, projectIds: number[] = [7]) => ({ type: 'InviteMembers' as const, data: { invites, projectIds }, metadata: meta(at, actor) });

describe('invites (organization aggregate)', () => {
  it('creates invites, replacing older ones for the same address (also within one bulk)', () => {
    const a = input('i1', 'a@example.com');
    spec.given(team).when(invite([a])).then([invited(a)]);
    const again = input('i2', 'a@example.com', { level: 8 });
    spec.given([...team, invited(a)]).when(invite([again])).then([{ type: 'OrganizationInviteDeleted', data: { inviteId: 'i1', reason: 'replaced', at } }, invited(again)]);
    const b1 = input('i3', 'b@example.com');
    const b2 = input('i4', 'b@example.com');
    spec.given(team).when(invite([b1, b2])).then([invited(b1), { type: 'OrganizationInviteDeleted', data: { inviteId: 'i3', reason: 'replaced', at } }, invited(b2)]);
  });

  it('combine_pending_invites: the highest level of the live invites, their project access merged (admin wins)', () => {
    const older = input('i1', 'c@x.io', { level: 8, privateProjectAccess: [{ id: 7, level: 'admin' }, { id: 9, level: 'member' }] });
    const stale = input('i0', 'c@x.io', { level: 15, privateProjectAccess: [{ id: 11, level: 'admin' }] });
    const later = '2026-01-03T00:00:00.000Z';
    // i0 was made four days before `later`: expired, so it is replaced but adds nothing.
    const history = [...team, invited(stale, 1, '2025-12-30T00:00:00.000Z'), invited(older, 1, at)];
    const again = input('i2', 'c@x.io', { level: 1, combinePendingInvites: true, privateProjectAccess: [{ id: 9, level: 'admin' }, { id: 7, level: 'member' }] });
    const stored = { ...inviteOf(again, 2, later), level: 8, privateProjectAccess: [{ id: 9, level: 'admin' as const }, { id: 7, level: 'admin' as const }] };
    spec.given(history).when({ ...invite([again], 2, [7, 9, 11]), metadata: meta(later, 2) }).then([
      { type: 'OrganizationInviteDeleted', data: { inviteId: 'i0', reason: 'replaced', at: later } },
      { type: 'OrganizationInviteDeleted', data: { inviteId: 'i1', reason: 'replaced', at: later } },
      { type: 'OrganizationInviteCreated', data: { invite: stored, at: later } },
    ]);
    // Without the flag the new invite is exactly what was asked, created now: its three days start again.
    const plain = input('i3', 'c@x.io', { level: 1 });
    spec.given(history).when({ ...invite([plain], 1, [7, 9, 11]), metadata: meta(later, 1) }).then([
      { type: 'OrganizationInviteDeleted', data: { inviteId: 'i0', reason: 'replaced', at: later } },
      { type: 'OrganizationInviteDeleted', data: { inviteId: 'i1', reason: 'replaced', at: later } },
      invited(plain, 1, later),
    ]);
  });

  it('is all or nothing, and checks level, membership and project access', () => {
    spec.given(team).when(invite([input('i1', 'a@x.io'), input('i2', 'b@x.io', { level: 8 })], 2)).thenThrows({
      kind: 'permission',
      detail: 'You cannot invite a user with a higher permission level than your own.',
    });
    spec.given(team).when(invite([input('i1', 'a@x.io', { existingUserId: 2 })])).thenThrows({ kind: 'validation', detail: 'A user with this email address already belongs to the organization.' });
    spec.given(team).when(invite([input('i1', 'a@x.io', { existingUserId: 9 })])).then([invited(input('i1', 'a@x.io'))]);
    spec.given(team).when(invite([input('i1', 'a@x.io', { privateProjectAccess: [{ id: 8, level: 'member' }] })])).thenThrows({
      kind: 'validation',
      attr: 'private_project_access',
      detail: 'Project does not exist on this organization, or it is private and you do not have access to it.',
    });
    spec.given(team).when(invite([input('i1', 'a@x.io', { level: 3 })])).thenThrows({ code: 'invalid_choice', attr: 'level' });
    spec.given(team).when(invite([input('i1', 'a@x.io')], 42)).thenThrows({ kind: 'permission' });
  });

  it('deletes an invite; an unknown one is not found', () => {
    const a = input('i1', 'a@x.io');
    spec.given([...team, invited(a)]).when({ type: 'DeleteInvite', data: { inviteId: 'i1' }, metadata: meta(at, 2) }).then([{ type: 'OrganizationInviteDeleted', data: { inviteId: 'i1', reason: 'deleted', at } }]);
    spec.given(team).when({ type: 'DeleteInvite', data: { inviteId: 'i1' }, metadata: meta(at, 1) }).thenThrows({ kind: 'not_found' });
  });

  it('accepting joins at the invite level and uses the invite up; expired after three days', () => {
    const a = input('i1', 'a@x.io', { level: 8 });
    const accept = (now: string) => ({ type: 'AcceptInvite' as const, data: { inviteId: 'i1', userId: 5, userUuid: 'u5', membershipId: 'm5' }, metadata: meta(now, 5) });
    const justInTime = '2026-01-03T23:59:59.000Z';
    spec.given([...team, invited(a)]).when(accept(justInTime)).then([
      { type: 'OrganizationInviteAccepted', data: { inviteId: 'i1', acceptedBy: 5, at: justInTime } },
      { type: 'OrganizationMemberJoined', data: { membershipId: 'm5', userId: 5, userUuid: 'u5', level: 8, at: justInTime } },
    ]);
    spec.given([...team, invited(a)]).when(accept('2026-01-04T00:00:01.000Z')).thenThrows({
      kind: 'validation',
      code: 'expired',
      detail: 'This invite has expired. Please ask your admin for a new one.',
    });
    spec.given([...team, invited(a), { type: 'OrganizationInviteAccepted', data: { inviteId: 'i1', acceptedBy: 5, at } }]).when(accept(at)).thenThrows({
      detail: 'The provided invite ID is not valid.',
    });
  });
});
