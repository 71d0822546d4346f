import type { Command } from '../decider';

export type CreatePersonalApiKey = Command<
  'CreatePersonalApiKey',
  { id: string; userId: number; label: string; secureValue: string; maskValue: string; scopes: string[]; scopedOrganizations: string[]; scopedTeams: number[] }
>;

export type PersonalApiKeyCommand = CreatePersonalApiKey;
