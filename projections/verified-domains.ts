import type { Doc } from '../src/readstore/port';
import { hasSaml } from '../domain/verified-domain/rules';
import type { Projection } from './projection';

/** How many failed verification attempts a domain document keeps (the newest ones). */
export const KEPT_VERIFICATION_ATTEMPTS = 20;

const SETTING_FIELDS = {
  jitProvisioningEnabled: 'jit_provisioning_enabled',
  ssoEnforcement: 'sso_enforcement',
  samlEntityId: 'saml_entity_id',
  samlAcsUrl: 'saml_acs_url',
  samlX509Cert: 'saml_x509_cert',
} as const;

const withSaml = (doc: Doc): Doc => ({
  ...doc,
  has_saml: hasSaml({ samlEntityId: doc.saml_entity_id, samlAcsUrl: doc.saml_acs_url, samlX509Cert: doc.saml_x509_cert }),
});

/**
 * Verified domains of every organization in one collection: the name is unique across organizations among live
 * domains, so a deleted domain's document goes away and frees its name.
 */
export const verifiedDomainsProjection: Projection = {
  name: 'verified_domains',
  version: 1,
  categories: ['domain'],
  collections: { verified_domains: [['organization_id', 'domain'], ['domain']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'verified_domains', id: event.streamId.slice('domain-'.length) }],
  evolve(doc, event) {
    const d = event.data;
    if (event.type === 'DomainCreated') {
      return withSaml({
        _id: d.id,
        id: d.id,
        organization_id: d.organizationId,
        domain: d.domain,
        is_verified: false,
        verified_at: null,
        verification_challenge: d.verificationChallenge,
        jit_provisioning_enabled: false,
        sso_enforcement: '',
        saml_entity_id: d.samlEntityId,
        saml_acs_url: d.samlAcsUrl,
        saml_x509_cert: d.samlX509Cert,
        last_verification_retry: null,
        verification_attempts: [],
        created_at: d.at,
      });
    }
    if (!doc) return doc;
    switch (event.type) {
      case 'DomainUpdated': {
        const next: Doc = { ...doc };
        for (const [key, value] of Object.entries(d.changes)) next[SETTING_FIELDS[key as keyof typeof SETTING_FIELDS]] = value;
        return withSaml(next);
      }
      case 'DomainVerified':
        return {
          ...doc,
          is_verified: true,
          verified_at: d.at,
          verification_attempts: [...doc.verification_attempts, { attempted_at: d.at, record_name: d.recordName, outcome: 'verified', detail: '' }].slice(
            -KEPT_VERIFICATION_ATTEMPTS,
          ),
        };
      case 'DomainVerificationFailed':
        return {
          ...doc,
          last_verification_retry: d.at,
          verification_attempts: [
            ...doc.verification_attempts,
            { attempted_at: d.at, record_name: d.recordName, outcome: d.outcome, detail: d.detail },
          ].slice(-KEPT_VERIFICATION_ATTEMPTS),
        };
      case 'DomainDeleted':
        return null;
      default:
        return doc;
    }
  },
};
