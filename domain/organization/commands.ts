import type { Command } from '../decider';

export type CreateOrganization = Command<
  'CreateOrganization',
  { id: string; name: string; slug: string; owner: { userId: number; userUuid: string; membershipId: string } }
>;

export type AddOrganizationMember = Command<'AddOrganizationMember', { userId: number; userUuid: string; membershipId: string; level: number }>;

export type OrganizationCommand = CreateOrganization | AddOrganizationMember;
