import type { Message } from '../decider';

export type SessionStarted = Message<'SessionStarted', { id: string; userId: number; tokenHash: string; expiresAt: string; at: string }>;
export type SessionEnded = Message<'SessionEnded', { id: string; userId: number; at: string }>;

export type SessionEvent = SessionStarted | SessionEnded;
