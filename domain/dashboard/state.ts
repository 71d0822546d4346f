import type { AccessView } from './access';
import type { DashboardDetails, DashboardEvent, Tile } from './events';

export type Collaborator = { id: string; userId: number; userUuid: string; level: number };

export type ActiveDashboard = DashboardDetails & {
  status: 'active';
  id: number;
  projectId: number;
  createdBy: number | null;
  restrictionLevel: number;
  deleted: boolean;
  tiles: Tile[];
  collaborators: Collaborator[];
  sharingEnabled: boolean;
};

export type DashboardState = { status: 'none' } | ActiveDashboard;

export const initialState = (): DashboardState => ({ status: 'none' });

export const accessViewOf = (state: ActiveDashboard, userId: number): AccessView => ({
  restrictionLevel: state.restrictionLevel,
  createdBy: state.createdBy,
  collaboratorLevel: state.collaborators.find((c) => c.userId === userId)?.level,
});

export function evolve(state: DashboardState, event: DashboardEvent): DashboardState {
  if (event.type === 'DashboardCreated') {
    const d = event.data;
    return {
      status: 'active',
      id: d.id,
      projectId: d.projectId,
      createdBy: d.createdBy,
      restrictionLevel: d.restrictionLevel,
      name: d.name,
      description: d.description,
      pinned: d.pinned,
      tags: d.tags,
      filters: d.filters,
      deleted: false,
      tiles: d.tiles,
      collaborators: [],
      sharingEnabled: false,
    };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'DashboardDetailsChanged':
      return { ...state, ...event.data.changes };
    case 'DashboardRestrictionLevelChanged':
      return { ...state, restrictionLevel: event.data.restrictionLevel };
    case 'DashboardDeleted':
      return { ...state, deleted: true };
    case 'DashboardRestored':
      return { ...state, deleted: false };
    case 'DashboardTileAdded':
      return { ...state, tiles: [...state.tiles.filter((t) => t.id !== event.data.tile.id), event.data.tile] };
    case 'DashboardTileUpdated':
      return { ...state, tiles: state.tiles.map((t) => (t.id === event.data.tileId ? { ...t, ...event.data.changes } : t)) };
    case 'DashboardTileRemoved':
      return { ...state, tiles: state.tiles.filter((t) => t.id !== event.data.tileId) };
    case 'DashboardCollaboratorAdded': {
      const { id, userId, userUuid, level } = event.data;
      return { ...state, collaborators: [...state.collaborators, { id, userId, userUuid, level }] };
    }
    case 'DashboardCollaboratorRemoved':
      return { ...state, collaborators: state.collaborators.filter((c) => c.userUuid !== event.data.userUuid) };
    case 'DashboardSharingEnabled':
      return { ...state, sharingEnabled: true };
    case 'DashboardSharingDisabled':
      return { ...state, sharingEnabled: false };
    case 'DashboardSharingTokenRefreshed':
      return state;
  }
}
