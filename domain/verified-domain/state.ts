import type { DomainSettings, VerifiedDomainEvent } from './events';

export type VerifiedDomainState =
  | { status: 'none' }
  | ({ status: 'active'; id: string; organizationId: string; domain: string; verificationChallenge: string; verifiedAt: string | null } & DomainSettings)
  | { status: 'deleted' };

export const initialState = (): VerifiedDomainState => ({ status: 'none' });

export function evolve(state: VerifiedDomainState, event: VerifiedDomainEvent): VerifiedDomainState {
  switch (event.type) {
    case 'DomainCreated': {
      const d = event.data;
      return {
        status: 'active',
        id: d.id,
        organizationId: d.organizationId,
        domain: d.domain,
        verificationChallenge: d.verificationChallenge,
        verifiedAt: null,
        jitProvisioningEnabled: false,
        ssoEnforcement: '',
        samlEntityId: d.samlEntityId,
        samlAcsUrl: d.samlAcsUrl,
        samlX509Cert: d.samlX509Cert,
      };
    }
    case 'DomainUpdated':
      return state.status === 'active' ? { ...state, ...event.data.changes } : state;
    case 'DomainVerified':
      return state.status === 'active' ? { ...state, verifiedAt: event.data.at } : state;
    case 'DomainVerificationFailed':
      return state;
    case 'DomainDeleted':
      return { status: 'deleted' };
  }
}
