import type { Command } from '../decider';

export type CreatePersonalApiKey = Command<
  'CreatePersonalApiKey',
  { id: string; userId: number; label: string; secureValue: string; maskValue: string; scopes: string[]; scopedOrganizations: string[]; scopedTeams: number[] }
>;
/** userId: who asks; only a key's owner may delete it (anyone else is told it does not exist). */
export type DeletePersonalApiKey = Command<'DeletePersonalApiKey', { userId: number }>;

export type PersonalApiKeyCommand = CreatePersonalApiKey | DeletePersonalApiKey;
