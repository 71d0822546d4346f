import type { Command } from '../decider';

export type CreateProject = Command<'CreateProject', { id: number; uuid: string; organizationId: string; name: string; apiToken: string }>;
export type UpdateProject = Command<'UpdateProject', { name?: string }>;
/** The new token is made by the caller (randomness stays out of decide). */
export type ResetProjectToken = Command<'ResetProjectToken', { apiToken: string }>;

export type ProjectCommand = CreateProject | UpdateProject | ResetProjectToken;
