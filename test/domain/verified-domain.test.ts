import { verifiedDomainDecider, VerifiedDomainEvent } from '../../domain/verified-domain';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(verifiedDomainDecider);
const ORG = '0190c2a0-0000-7000-8000-000000000001';
const CHALLENGE = 'c'.repeat(43);
const AT = '2026-01-01T00:00:00.000Z';
const admin = { organizationId: ORG, actorLevel: 8 };

const created: VerifiedDomainEvent = {
  type: 'DomainCreated',
  data: { id: 'd1', organizationId: ORG, domain: 'example.com', verificationChallenge: CHALLENGE, samlEntityId: null, samlAcsUrl: null, samlX509Cert: null, at: AT },
};
const verified: VerifiedDomainEvent = { type: 'DomainVerified', data: { recordName: '_c.example.com', at: AT } };
const verify = (lookup: any) => ({ type: 'RecordDomainVerification' as const, data: { ...admin, recordName: '_c.example.com', lookup }, metadata: meta() });

describe('verified domain decider', () => {
  it('creates a lower-cased domain without SSO settings', () =>
    spec
      .given([])
      .when({ type: 'CreateDomain', data: { ...admin, id: 'd1', domain: 'Example.COM', verificationChallenge: CHALLENGE, domainTaken: false }, metadata: meta() })
      .then([created]));

  it('refuses a malformed or taken name, and non-admins', () => {
    const base = { ...admin, id: 'd1', verificationChallenge: CHALLENGE, domainTaken: false };
    spec.given([]).when({ type: 'CreateDomain', data: { ...base, domain: 'nope' }, metadata: meta() }).thenThrows({ code: 'invalid_input', attr: 'domain' });
    spec.given([]).when({ type: 'CreateDomain', data: { ...base, domain: 'a.com', domainTaken: true }, metadata: meta() }).thenThrows({ code: 'unique', attr: 'domain' });
    spec
      .given([])
      .when({ type: 'CreateDomain', data: { ...base, domain: 'a.com', actorLevel: 1 }, metadata: meta() })
      .thenThrows({ kind: 'permission', detail: 'Your organization access level is insufficient.' });
  });

  it('needs verification before SSO settings change, and checks sso_enforcement', () => {
    spec.given([created]).when({ type: 'UpdateDomain', data: { ...admin, jitProvisioningEnabled: true }, metadata: meta() }).thenThrows({ code: 'verification_required', attr: 'jit_provisioning_enabled' });
    spec.given([created]).when({ type: 'UpdateDomain', data: { ...admin, ssoEnforcement: 'bogus' }, metadata: meta() }).thenThrows({ code: 'invalid_choice', attr: 'sso_enforcement' });
    spec.given([created]).when({ type: 'UpdateDomain', data: { ...admin, jitProvisioningEnabled: false, ssoEnforcement: '' }, metadata: meta() }).thenNothingHappened();
    spec
      .given([created, verified])
      .when({ type: 'UpdateDomain', data: { ...admin, ssoEnforcement: 'github', samlAcsUrl: 'https://acs' }, metadata: meta() })
      .then([{ type: 'DomainUpdated', data: { changes: { ssoEnforcement: 'github', samlAcsUrl: 'https://acs' }, at: AT } }]);
    spec.given([created]).when({ type: 'UpdateDomain', data: { ...admin, domain: 'other.com' }, metadata: meta() }).thenThrows({ attr: 'domain' });
  });

  it('verifies on a matching record, records a failure otherwise, refuses a second verification', () => {
    spec.given([created]).when(verify({ outcome: 'records', records: ['x', CHALLENGE] })).then([verified]);
    spec
      .given([created])
      .when(verify({ outcome: 'records', records: ['x'] }))
      .then([{ type: 'DomainVerificationFailed', data: { recordName: '_c.example.com', outcome: 'mismatch', detail: expect.any(String), at: AT } } as any]);
    spec
      .given([created])
      .when(verify({ outcome: 'no_record' }))
      .then([{ type: 'DomainVerificationFailed', data: { recordName: '_c.example.com', outcome: 'no_record', detail: expect.any(String), at: AT } } as any]);
    spec
      .given([created])
      .when(verify({ outcome: 'error', detail: 'timeout' }))
      .then([{ type: 'DomainVerificationFailed', data: { recordName: '_c.example.com', outcome: 'error', detail: 'timeout', at: AT } }]);
    spec.given([created, verified]).when(verify({ outcome: 'records', records: [CHALLENGE] })).thenThrows({ code: 'already_verified', attr: null });
  });

  it('deletes once, and knows nothing of other organizations\' domains', () => {
    spec.given([created]).when({ type: 'DeleteDomain', data: admin, metadata: meta() }).then([{ type: 'DomainDeleted', data: { domain: 'example.com', at: AT } }]);
    spec
      .given([created, { type: 'DomainDeleted', data: { domain: 'example.com', at: AT } }])
      .when({ type: 'DeleteDomain', data: admin, metadata: meta() })
      .thenThrows({ kind: 'not_found' });
    spec.given([created]).when({ type: 'DeleteDomain', data: { ...admin, organizationId: 'other' }, metadata: meta() }).thenThrows({ kind: 'not_found' });
  });
});
