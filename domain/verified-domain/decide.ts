import { DomainError, invalid, notFound } from '../errors';
import type { VerifiedDomainCommand } from './commands';
import type { DomainSettings, VerifiedDomainEvent } from './events';
import { checkSsoEnforcement, ensureDomainAdmin, normalizeDomain } from './rules';
import type { VerifiedDomainState } from './state';

const verificationRequired = (attr: string) =>
  invalid('This attribute cannot be updated until the domain is verified.', attr, 'verification_required');

export function decide(command: VerifiedDomainCommand, state: VerifiedDomainState): VerifiedDomainEvent[] {
  const at = command.metadata.now;
  const d = command.data;
  ensureDomainAdmin(d.actorLevel);
  if (command.type === 'CreateDomain') {
    if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This domain already exists.');
    const domain = normalizeDomain(command.data.domain);
    if (command.data.domainTaken) throw invalid('domain with this domain already exists.', 'domain', 'unique');
    // jit_provisioning_enabled and sso_enforcement are not taken on create: they need a verified domain.
    return [
      {
        type: 'DomainCreated',
        data: {
          id: command.data.id,
          organizationId: d.organizationId,
          domain,
          verificationChallenge: command.data.verificationChallenge,
          samlEntityId: command.data.samlEntityId ?? null,
          samlAcsUrl: command.data.samlAcsUrl ?? null,
          samlX509Cert: command.data.samlX509Cert ?? null,
          at,
        },
      },
    ];
  }
  if (state.status !== 'active' || state.organizationId !== d.organizationId) throw notFound();
  switch (command.type) {
    case 'UpdateDomain': {
      const c = command.data;
      if (c.domain !== undefined && c.domain.trim().toLowerCase() !== state.domain) {
        throw invalid('The domain cannot be changed after creation.', 'domain');
      }
      const verified = state.verifiedAt !== null;
      const changes: Partial<DomainSettings> = {};
      if (c.jitProvisioningEnabled !== undefined && c.jitProvisioningEnabled !== state.jitProvisioningEnabled) {
        if (!verified) throw verificationRequired('jit_provisioning_enabled');
        changes.jitProvisioningEnabled = c.jitProvisioningEnabled;
      }
      if (c.ssoEnforcement !== undefined) {
        const value = checkSsoEnforcement(c.ssoEnforcement);
        if (value !== state.ssoEnforcement) {
          if (!verified) throw verificationRequired('sso_enforcement');
          changes.ssoEnforcement = value;
        }
      }
      for (const field of ['samlEntityId', 'samlAcsUrl', 'samlX509Cert'] as const) {
        if (c[field] !== undefined && c[field] !== state[field]) changes[field] = c[field];
      }
      return Object.keys(changes).length ? [{ type: 'DomainUpdated', data: { changes, at } }] : [];
    }
    case 'RecordDomainVerification': {
      if (state.verifiedAt !== null) throw invalid('This domain has already been verified.', null, 'already_verified');
      const { recordName, lookup } = command.data;
      if (lookup.outcome === 'records' && lookup.records.includes(state.verificationChallenge)) {
        return [{ type: 'DomainVerified', data: { recordName, at } }];
      }
      const failure =
        lookup.outcome === 'records'
          ? { outcome: 'mismatch' as const, detail: `No TXT record at ${recordName} equals the verification challenge.` }
          : lookup.outcome === 'no_record'
            ? { outcome: 'no_record' as const, detail: `No TXT record found at ${recordName}.` }
            : { outcome: 'error' as const, detail: lookup.detail };
      return [{ type: 'DomainVerificationFailed', data: { recordName, ...failure, at } }];
    }
    case 'DeleteDomain':
      return [{ type: 'DomainDeleted', data: { domain: state.domain, at } }];
  }
}
