import type { Doc } from '../../src/readstore/port';
import { applyEvent, documentKey, ProjectedEvent } from '../../projections/projection';
import { verifiedDomainsProjection } from '../../projections/verified-domains';

const ID = '0190c2a0-0000-7000-8000-00000000000d';
const events: Array<Pick<ProjectedEvent, 'type' | 'data'>> = [
  {
    type: 'DomainCreated',
    data: { id: ID, organizationId: 'org', domain: 'example.com', verificationChallenge: 'c'.repeat(43), samlEntityId: 'e', samlAcsUrl: null, samlX509Cert: null, at: '2026-01-01T00:00:00.000Z' },
  },
  { type: 'DomainUpdated', data: { changes: { samlAcsUrl: 'https://acs', samlX509Cert: 'CERT' }, at: '2026-01-01T00:00:01.000Z' } },
  { type: 'DomainVerificationFailed', data: { recordName: '_c.example.com', outcome: 'no_record', detail: 'none', at: '2026-01-01T00:00:02.000Z' } },
  { type: 'DomainVerified', data: { recordName: '_c.example.com', at: '2026-01-01T00:00:03.000Z' } },
  { type: 'DomainUpdated', data: { changes: { jitProvisioningEnabled: true, ssoEnforcement: 'saml' }, at: '2026-01-01T00:00:04.000Z' } },
];

const projected = (e: Pick<ProjectedEvent, 'type' | 'data'>, i: number): ProjectedEvent => ({
  ...e,
  metadata: {},
  streamId: `domain-${ID}`,
  revision: BigInt(i),
  position: BigInt(10 + i),
});

const key = documentKey({ collection: 'verified_domains', id: ID });

describe('verified domains projection', () => {
  it('applies every event once, whatever the number of deliveries', () => {
    const docs = new Map<string, Doc | null>();
    events.forEach((e, i) => applyEvent(verifiedDomainsProjection, projected(e, i), docs));
    const once = docs.get(key);
    events.forEach((e, i) => expect(applyEvent(verifiedDomainsProjection, projected(e, i), docs)).toEqual([]));
    expect(docs.get(key)).toEqual(once);
    expect(once).toMatchObject({
      domain: 'example.com',
      organization_id: 'org',
      is_verified: true,
      verified_at: '2026-01-01T00:00:03.000Z',
      has_saml: true,
      jit_provisioning_enabled: true,
      sso_enforcement: 'saml',
      last_verification_retry: '2026-01-01T00:00:02.000Z',
      verification_attempts: [expect.objectContaining({ outcome: 'no_record' }), expect.objectContaining({ outcome: 'verified' })],
    });
  });

  it('removes a deleted domain, which frees its name', () => {
    const docs = new Map<string, Doc | null>();
    const all = [...events, { type: 'DomainDeleted', data: { domain: 'example.com', at: '2026-01-01T00:00:05.000Z' } }];
    all.forEach((e, i) => applyEvent(verifiedDomainsProjection, projected(e, i), docs));
    all.forEach((e, i) => applyEvent(verifiedDomainsProjection, projected(e, i), docs));
    expect(docs.get(key)).toBeNull();
  });
});
