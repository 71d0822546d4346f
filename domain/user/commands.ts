import type { Command } from '../decider';

export type SignUpUser = Command<
  'SignUpUser',
  { id: number; uuid: string; email: string; firstName: string; lastName: string; distinctId: string; passwordHash: string | null }
>;
export type SwitchOrganization = Command<'SwitchOrganization', { organizationId: string; teamId: number | null }>;

export type UserCommand = SignUpUser | SwitchOrganization;
