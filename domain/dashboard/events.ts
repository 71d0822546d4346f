import type { Message } from '../decider';

/** A tile as the dashboard holds it: exactly one of text or insight. */
export type Tile = {
  id: number;
  layouts: Record<string, unknown>;
  color: string | null;
  text: { body: string } | null;
  /** An insight tile keeps the insight's definition (name, query, …) as it was given. */
  insight: Record<string, unknown> | null;
  showDescription: boolean | null;
  transparentBackground: boolean | null;
};

export type TileChanges = Partial<Pick<Tile, 'layouts' | 'color' | 'text' | 'showDescription' | 'transparentBackground'>>;

export type DashboardDetails = {
  name: string;
  description: string;
  pinned: boolean;
  tags: string[];
  filters: Record<string, unknown>;
};

export type CreationMode = 'default' | 'template' | 'duplicate';

export type DashboardCreated = Message<
  'DashboardCreated',
  DashboardDetails & {
    id: number;
    projectId: number;
    createdBy: number | null;
    restrictionLevel: number;
    creationMode: CreationMode;
    tiles: Tile[];
    /** The sharing configuration exists from creation, disabled, with this token. */
    sharingAccessToken: string;
    at: string;
  }
>;
export type DashboardDetailsChanged = Message<'DashboardDetailsChanged', { changes: Partial<DashboardDetails>; at: string }>;
export type DashboardRestrictionLevelChanged = Message<'DashboardRestrictionLevelChanged', { restrictionLevel: number; at: string }>;
export type DashboardDeleted = Message<'DashboardDeleted', { at: string }>;
export type DashboardRestored = Message<'DashboardRestored', { at: string }>;
export type DashboardTileAdded = Message<'DashboardTileAdded', { tile: Tile; movedFrom?: number; at: string }>;
export type DashboardTileUpdated = Message<'DashboardTileUpdated', { tileId: number; changes: TileChanges; at: string }>;
export type DashboardTileRemoved = Message<'DashboardTileRemoved', { tileId: number; movedTo?: number; at: string }>;
export type DashboardCollaboratorAdded = Message<
  'DashboardCollaboratorAdded',
  { id: string; userId: number; userUuid: string; level: number; at: string }
>;
export type DashboardCollaboratorRemoved = Message<'DashboardCollaboratorRemoved', { userId: number; userUuid: string; at: string }>;
export type DashboardSharingEnabled = Message<'DashboardSharingEnabled', { at: string }>;
export type DashboardSharingDisabled = Message<'DashboardSharingDisabled', { at: string }>;
export type DashboardSharingTokenRefreshed = Message<'DashboardSharingTokenRefreshed', { accessToken: string; at: string }>;

export type DashboardEvent =
  | DashboardCreated
  | DashboardDetailsChanged
  | DashboardRestrictionLevelChanged
  | DashboardDeleted
  | DashboardRestored
  | DashboardTileAdded
  | DashboardTileUpdated
  | DashboardTileRemoved
  | DashboardCollaboratorAdded
  | DashboardCollaboratorRemoved
  | DashboardSharingEnabled
  | DashboardSharingDisabled
  | DashboardSharingTokenRefreshed;
