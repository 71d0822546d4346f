import type { Message } from '../decider';

export type PersonalApiKeyCreated = Message<
  'PersonalApiKeyCreated',
  {
    id: string;
    userId: number;
    label: string;
    /** sha256 of the key: the key itself is shown once and never stored. */
    secureValue: string;
    maskValue: string;
    scopes: string[];
    scopedOrganizations: string[];
    scopedTeams: number[];
    at: string;
  }
>;

export type PersonalApiKeyDeleted = Message<'PersonalApiKeyDeleted', { id: string; userId: number; at: string }>;

export type PersonalApiKeyUsed = Message<'PersonalApiKeyUsed', { id: string; at: string }>;

export type PersonalApiKeyEvent = PersonalApiKeyCreated | PersonalApiKeyDeleted | PersonalApiKeyUsed;
