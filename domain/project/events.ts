import type { Message } from '../decider';

export type ProjectCreated = Message<'ProjectCreated', { id: number; uuid: string; organizationId: string; name: string; apiToken: string; at: string }>;

export type ProjectEvent = ProjectCreated;
