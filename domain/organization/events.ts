import type { Message } from '../decider';
import type { Invite } from './invites';

export type OrganizationCreated = Message<
  'OrganizationCreated',
  {
    id: string;
    name: string;
    slug: string;
    createdBy: number;
    pluginsAccessLevel: number;
    logoMediaId?: string | null;
    isMemberJoinEmailEnabled?: boolean;
    enforce2fa?: boolean | null;
    at: string;
  }
>;
export type OrganizationMemberJoined = Message<
  'OrganizationMemberJoined',
  { membershipId: string; userId: number; userUuid: string; level: number; at: string }
>;
export type OrganizationUpdated = Message<
  'OrganizationUpdated',
  { name?: string; logoMediaId?: string | null; isMemberJoinEmailEnabled?: boolean; enforce2fa?: boolean | null; at: string }
>;
/** Carries who and what went with the organization, so read models can drop them without a query. */
export type OrganizationDeleted = Message<'OrganizationDeleted', { memberUserIds: number[]; inviteIds: string[]; projectIds: number[]; at: string }>;
export type OrganizationMemberLevelChanged = Message<'OrganizationMemberLevelChanged', { userId: number; level: number; at: string }>;
export type OrganizationMemberRemoved = Message<'OrganizationMemberRemoved', { userId: number; at: string }>;
export type OrganizationInviteCreated = Message<'OrganizationInviteCreated', { invite: Invite; at: string }>;
export type OrganizationInviteDeleted = Message<'OrganizationInviteDeleted', { inviteId: string; reason: 'deleted' | 'replaced'; at: string }>;
export type OrganizationInviteAccepted = Message<'OrganizationInviteAccepted', { inviteId: string; acceptedBy: number; at: string }>;

export type OrganizationEvent =
  | OrganizationCreated
  | OrganizationMemberJoined
  | OrganizationUpdated
  | OrganizationDeleted
  | OrganizationMemberLevelChanged
  | OrganizationMemberRemoved
  | OrganizationInviteCreated
  | OrganizationInviteDeleted
  | OrganizationInviteAccepted;
