import type { Command } from '../decider';

/** tokenHash: SHA-256 of the cookie value; the value itself never leaves the response that set it. */
export type StartSession = Command<'StartSession', { id: string; userId: number; tokenHash: string; expiresAt: string }>;
export type EndSession = Command<'EndSession', Record<string, never>>;

export type SessionCommand = StartSession | EndSession;
