import type { Decider } from '../decider';
import type { DashboardCommand } from './commands';
import { decide } from './decide';
import type { DashboardEvent } from './events';
import { DashboardState, evolve, initialState } from './state';

export const dashboardDecider: Decider<DashboardState, DashboardCommand, DashboardEvent> = { decide, evolve, initialState };
export const dashboardStream = (id: number) => `dashboard-${id}`;
export * from './access';
export type * from './commands';
export type * from './events';
export type { ActiveDashboard, Collaborator, DashboardState } from './state';
export { accessViewOf } from './state';
export { normalizeTags, TEXT_TILE_MAX_LENGTH } from './decide';
