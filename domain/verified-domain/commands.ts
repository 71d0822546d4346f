import type { Command } from '../decider';

/** What the TXT lookup of the challenge record answered (the router asks DNS; the command carries the answer). */
export type ChallengeLookup =
  | { outcome: 'records'; records: string[] }
  | { outcome: 'no_record' }
  | { outcome: 'error'; detail: string };

type Acting = { organizationId: string; actorLevel: number };

export type CreateDomain = Command<
  'CreateDomain',
  Acting & {
    id: string;
    domain: string;
    /** Made by the router (random); fixed for the life of the domain. */
    verificationChallenge: string;
    /** Whether another live domain of any organization already has this name (a read-model lookup). */
    domainTaken: boolean;
    samlEntityId?: string | null;
    samlAcsUrl?: string | null;
    samlX509Cert?: string | null;
  }
>;

export type UpdateDomain = Command<
  'UpdateDomain',
  Acting & {
    domain?: string;
    jitProvisioningEnabled?: boolean;
    ssoEnforcement?: string;
    samlEntityId?: string | null;
    samlAcsUrl?: string | null;
    samlX509Cert?: string | null;
  }
>;

export type RecordDomainVerification = Command<'RecordDomainVerification', Acting & { recordName: string; lookup: ChallengeLookup }>;

export type DeleteDomain = Command<'DeleteDomain', Acting>;

export type VerifiedDomainCommand = CreateDomain | UpdateDomain | RecordDomainVerification | DeleteDomain;
