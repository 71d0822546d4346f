import type { Message } from '../decider';

export type UserSignedUp = Message<
  'UserSignedUp',
  { id: number; uuid: string; email: string; firstName: string; lastName: string; distinctId: string; passwordHash: string | null; at: string }
>;
export type UserSwitchedOrganization = Message<'UserSwitchedOrganization', { organizationId: string | null; teamId: number | null; at: string }>;

export type UserSignUpCancelled = Message<'UserSignUpCancelled', { id: number; at: string }>;

export type UserEvent = UserSignedUp | UserSwitchedOrganization | UserSignUpCancelled;
