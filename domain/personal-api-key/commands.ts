import type { Command } from '../decider';

export type CreatePersonalApiKey = Command<
  'CreatePersonalApiKey',
  { id: string; userId: number; label: string; secureValue: string; maskValue: string; scopes: string[]; scopedOrganizations: string[]; scopedTeams: number[] }
>;
/** userId: who asks; only a key's owner may delete it (anyone else is told it does not exist). */
export type DeletePersonalApiKey = Command<'DeletePersonalApiKey', { userId: number }>;

/** The key authenticated a request (recorded after the answer, so the time is when it was used, give or take). */
export type RecordPersonalApiKeyUse = Command<'RecordPersonalApiKeyUse', Record<string, never>>;

export type PersonalApiKeyCommand = CreatePersonalApiKey | DeletePersonalApiKey | RecordPersonalApiKeyUse;
