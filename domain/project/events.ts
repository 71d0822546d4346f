import type { Message } from '../decider';

export type ProjectCreated = Message<'ProjectCreated', { id: number; uuid: string; organizationId: string; name: string; apiToken: string; at: string }>;
/** organizationId rides along so the organization read model (which lists its projects) finds its document. */
export type ProjectUpdated = Message<'ProjectUpdated', { organizationId: string; name?: string; at: string }>;
export type ProjectTokenReset = Message<'ProjectTokenReset', { organizationId: string; apiToken: string; at: string }>;

export type ProjectEvent = ProjectCreated | ProjectUpdated | ProjectTokenReset;
