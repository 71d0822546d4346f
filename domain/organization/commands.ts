import type { Command } from '../decider';
import type { InviteInput } from './invites';

export type OrganizationSettings = {
  logoMediaId?: string | null;
  isMemberJoinEmailEnabled?: boolean;
  enforce2fa?: boolean | null;
};

export type CreateOrganization = Command<
  'CreateOrganization',
  { id: string; name: string; slug: string; owner: { userId: number; userUuid: string; membershipId: string }; settings?: OrganizationSettings }
>;

export type AddOrganizationMember = Command<'AddOrganizationMember', { userId: number; userUuid: string; membershipId: string; level: number }>;

/** The acting user (metadata.userId) must be an admin; only the given fields change. */
export type UpdateOrganization = Command<'UpdateOrganization', OrganizationSettings & { name?: string }>;

/** projectIds: the organization's projects (a lookup by the caller), which go with it. */
export type DeleteOrganization = Command<'DeleteOrganization', { projectIds: number[] }>;

export type ChangeMemberLevel = Command<'ChangeMemberLevel', { userId: number; level: number }>;

/** Removing someone else, or leaving when userId is the acting user. */
export type RemoveMember = Command<'RemoveMember', { userId: number }>;

/** One invite or a bulk of them: all are accepted or none. projectIds: the organization's projects. */
export type InviteMembers = Command<'InviteMembers', { invites: InviteInput[]; projectIds: number[] }>;

export type DeleteInvite = Command<'DeleteInvite', { inviteId: string }>;

/** Signup through an invite: the new user joins at the invite's level and the invite is used up, together. */
export type AcceptInvite = Command<'AcceptInvite', { inviteId: string; userId: number; userUuid: string; membershipId: string }>;

export type OrganizationCommand =
  | CreateOrganization
  | AddOrganizationMember
  | UpdateOrganization
  | DeleteOrganization
  | ChangeMemberLevel
  | RemoveMember
  | InviteMembers
  | DeleteInvite
  | AcceptInvite;
