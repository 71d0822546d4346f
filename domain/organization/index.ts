import type { Decider } from '../decider';
import type { OrganizationCommand } from './commands';
import { decide } from './decide';
import type { OrganizationEvent } from './events';
import { evolve, initialState, OrganizationState } from './state';

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = { decide, evolve, initialState };
export const organizationStream = (id: string) => `organization-${id}`;
export type { OrganizationCommand, OrganizationEvent, OrganizationState };
