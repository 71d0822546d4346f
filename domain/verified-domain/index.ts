import type { Decider } from '../decider';
import type { VerifiedDomainCommand } from './commands';
import { decide } from './decide';
import type { VerifiedDomainEvent } from './events';
import { evolve, initialState, VerifiedDomainState } from './state';

export const verifiedDomainDecider: Decider<VerifiedDomainState, VerifiedDomainCommand, VerifiedDomainEvent> = { decide, evolve, initialState };
export const verifiedDomainStream = (id: string) => `domain-${id}`;
export type { ChallengeLookup, VerifiedDomainCommand } from './commands';
export type { VerifiedDomainEvent, VerifiedDomainState };
export * from './rules';
