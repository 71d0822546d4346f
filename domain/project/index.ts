import type { Decider } from '../decider';
import type { ProjectCommand } from './commands';
import { decide } from './decide';
import type { ProjectEvent } from './events';
import { evolve, initialState, ProjectState } from './state';

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectEvent> = { decide, evolve, initialState };
export const projectStream = (id: number) => `project-${id}`;
export type { ProjectCommand, ProjectEvent, ProjectState };
