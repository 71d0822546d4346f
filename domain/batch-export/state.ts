import type { BatchExportEvent, BatchExportSettings } from './events';

export type BatchExportState =
  | { status: 'none' }
  | ({
      status: 'active' | 'deleted';
      id: string;
      organizationId: string;
      teamId: number;
      paused: boolean;
      lastPausedAt: string | null;
    } & BatchExportSettings);

export const initialState = (): BatchExportState => ({ status: 'none' });

export function evolve(state: BatchExportState, event: BatchExportEvent): BatchExportState {
  const d = event.data;
  if (event.type === 'BatchExportCreated') {
    const c = event.data;
    return {
      status: 'active',
      id: c.id,
      organizationId: c.organizationId,
      teamId: c.teamId,
      paused: c.paused,
      lastPausedAt: c.paused ? c.at : null,
      name: c.name,
      model: c.model,
      destination: c.destination,
      interval: c.interval,
      start_at: c.start_at,
      end_at: c.end_at,
      hogql_query: c.hogql_query,
      schema: c.schema,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'BatchExportUpdated': {
      const { teamId, ...settings } = event.data.changes;
      return { ...state, ...settings, teamId: teamId ?? state.teamId };
    }
    case 'BatchExportPaused':
      return { ...state, paused: true, lastPausedAt: d.at };
    case 'BatchExportUnpaused':
      return { ...state, paused: false };
    case 'BatchExportDeleted':
      return { ...state, status: 'deleted' };
    default:
      return state;
  }
}
