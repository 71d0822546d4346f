import { sessionDecider } from '../../domain/session';
import { userDecider } from '../../domain/user';
import type { UserEvent } from '../../domain/user';
import { DeciderSpecification, meta } from '../support/decider-spec';

const at = '2026-01-01T00:00:00.000Z';
const signedUp: UserEvent[] = [{ type: 'UserSignedUp', data: { id: 1, uuid: 'u', email: 'a@b', firstName: 'A', lastName: '', distinctId: 'd', passwordHash: null, at } }];

describe('user aggregate', () => {
  const spec = DeciderSpecification(userDecider);
  it('switches organization, to none as well, and ignores a switch to where it already is', () => {
    spec.given(signedUp).when({ type: 'SwitchOrganization', data: { organizationId: 'o', teamId: 2 }, metadata: meta(at) }).then([{ type: 'UserSwitchedOrganization', data: { organizationId: 'o', teamId: 2, at } }]);
    const there: UserEvent[] = [...signedUp, { type: 'UserSwitchedOrganization', data: { organizationId: 'o', teamId: 2, at } }];
    spec.given(there).when({ type: 'SwitchOrganization', data: { organizationId: 'o', teamId: 2 }, metadata: meta(at) }).thenNothingHappened();
    spec.given(there).when({ type: 'SwitchOrganization', data: { organizationId: null, teamId: null }, metadata: meta(at) }).then([{ type: 'UserSwitchedOrganization', data: { organizationId: null, teamId: null, at } }]);
  });

  it('a cancelled signup is over for good: not again, not switched, cancelling twice is nothing', () => {
    const cancel = { type: 'CancelSignUp' as const, data: {}, metadata: meta(at) };
    spec.given(signedUp).when(cancel).then([{ type: 'UserSignUpCancelled', data: { id: 1, at } }]);
    const cancelled: UserEvent[] = [...signedUp, { type: 'UserSignUpCancelled', data: { id: 1, at } }];
    spec.given(cancelled).when(cancel).thenNothingHappened();
    spec.given(cancelled).when({ type: 'SignUpUser', data: { ...signedUp[0].data }, metadata: meta(at) } as never).thenThrows({ kind: 'conflict' });
    spec.given(cancelled).when({ type: 'SwitchOrganization', data: { organizationId: 'o', teamId: 2 }, metadata: meta(at) }).thenThrows({ kind: 'not_found' });
    spec.given([]).when(cancel).thenThrows({ kind: 'not_found' });
  });
});

describe('login session aggregate', () => {
  const spec = DeciderSpecification(sessionDecider);
  const started = [{ type: 'SessionStarted' as const, data: { id: 's', userId: 1, tokenHash: 'h', expiresAt: at, at } }];
  it('starts once and ends idempotently', () => {
    spec.given([]).when({ type: 'StartSession', data: { id: 's', userId: 1, tokenHash: 'h', expiresAt: at }, metadata: meta(at) }).then(started);
    spec.given(started).when({ type: 'StartSession', data: { id: 's', userId: 1, tokenHash: 'h', expiresAt: at }, metadata: meta(at) }).thenThrows({ kind: 'conflict' });
    spec.given(started).when({ type: 'EndSession', data: {}, metadata: meta(at) }).then([{ type: 'SessionEnded', data: { id: 's', userId: 1, at } }]);
    spec.given([...started, { type: 'SessionEnded' as const, data: { id: 's', userId: 1, at } }]).when({ type: 'EndSession', data: {}, metadata: meta(at) }).thenNothingHappened();
  });
});
