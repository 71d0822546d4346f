import type { Command } from '../decider';

export type CreateProject = Command<'CreateProject', { id: number; uuid: string; organizationId: string; name: string; apiToken: string }>;

export type ProjectCommand = CreateProject;
