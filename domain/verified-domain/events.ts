import type { Message } from '../decider';
import type { SsoEnforcement } from './rules';

export type DomainSettings = {
  jitProvisioningEnabled: boolean;
  ssoEnforcement: SsoEnforcement;
  samlEntityId: string | null;
  samlAcsUrl: string | null;
  samlX509Cert: string | null;
};

export type DomainCreated = Message<
  'DomainCreated',
  {
    id: string;
    organizationId: string;
    domain: string;
    verificationChallenge: string;
    samlEntityId: string | null;
    samlAcsUrl: string | null;
    samlX509Cert: string | null;
    at: string;
  }
>;
/** Only the settings that changed. */
export type DomainUpdated = Message<'DomainUpdated', { changes: Partial<DomainSettings>; at: string }>;
export type DomainVerified = Message<'DomainVerified', { recordName: string; at: string }>;
/** A verification attempt that found no matching TXT record: what was asked and what came back. */
export type DomainVerificationFailed = Message<
  'DomainVerificationFailed',
  { recordName: string; outcome: 'no_record' | 'mismatch' | 'error'; detail: string; at: string }
>;
export type DomainDeleted = Message<'DomainDeleted', { domain: string; at: string }>;

export type VerifiedDomainEvent = DomainCreated | DomainUpdated | DomainVerified | DomainVerificationFailed | DomainDeleted;
