import type { Message } from '../decider';

export type OrganizationCreated = Message<
  'OrganizationCreated',
  { id: string; name: string; slug: string; createdBy: number; pluginsAccessLevel: number; at: string }
>;
export type OrganizationMemberJoined = Message<
  'OrganizationMemberJoined',
  { membershipId: string; userId: number; userUuid: string; level: number; at: string }
>;

export type OrganizationEvent = OrganizationCreated | OrganizationMemberJoined;
