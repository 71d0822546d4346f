import type { Command } from '../decider';

export type SignUpUser = Command<
  'SignUpUser',
  { id: number; uuid: string; email: string; firstName: string; lastName: string; distinctId: string; passwordHash: string | null }
>;
/** organizationId null: the user belongs to no organization any more. */
export type SwitchOrganization = Command<'SwitchOrganization', { organizationId: string | null; teamId: number | null }>;

/** Undoes a signup whose invite could not be used after all (it vanished meanwhile): the user never existed. */
export type CancelSignUp = Command<'CancelSignUp', Record<string, never>>;

export type UserCommand = SignUpUser | SwitchOrganization | CancelSignUp;
