import type { Command } from '../decider';
import type { Actor } from './access';
import type { Tile } from './events';

/** What a template or a source dashboard contributes to a new one, looked up by the router (null: not found). */
export type DashboardSource = { filters: Record<string, unknown>; tiles: Tile[] };

export type CreateDashboard = Command<
  'CreateDashboard',
  {
    id: number;
    projectId: number;
    name: string;
    description: string;
    pinned: boolean;
    deleted: boolean;
    tags: string[];
    restrictionLevel: number;
    filters?: Record<string, unknown>;
    useTemplate?: { key: string; found: DashboardSource | null };
    useDashboard?: { id: number; found: DashboardSource | null };
    /** Tiles of the request itself, each with its allocated `newId`. */
    tiles: TilePatch[];
    sharingAccessToken: string;
    createdBy: number | null;
  }
>;

/** One entry of PATCH `tiles`: no id adds a tile (under `newId`), an id edits that tile, `deleted` removes it. */
export type TilePatch = {
  id?: number;
  newId?: number;
  text?: { body: string };
  layouts?: Record<string, unknown>;
  color?: string | null;
  showDescription?: boolean | null;
  transparentBackground?: boolean | null;
  deleted?: boolean;
};

export type UpdateDashboard = Command<
  'UpdateDashboard',
  {
    actor: Actor;
    name?: string;
    description?: string;
    pinned?: boolean;
    tags?: string[];
    filters?: Record<string, unknown>;
    restrictionLevel?: number;
    deleted?: boolean;
    tiles?: TilePatch[];
  }
>;

/**
 * move_tile is two commands on two streams (each dashboard is its own consistency boundary): the tile is first
 * added to the destination, then removed from the source. A crash between the two leaves the tile on both
 * dashboards (visible, and fixed by repeating the move), never on neither: nothing a user made is lost.
 */
export type MoveTileIn = Command<'MoveTileIn', { actor: Actor; tile: Tile; fromDashboardId: number }>;
export type MoveTileOut = Command<'MoveTileOut', { actor: Actor; tileId: number; toDashboardId: number }>;

export type AddCollaborator = Command<
  'AddCollaborator',
  {
    actor: Actor;
    id: string;
    level: number;
    /** null: no active user has this uuid. */
    user: { id: number; uuid: string; hasProjectAccess: boolean; organizationLevel: number } | null;
  }
>;
export type RemoveCollaborator = Command<'RemoveCollaborator', { actor: Actor; userUuid: string }>;

/** Publishing a dashboard (or changing its public link) is an edit: a restricted dashboard needs edit rights. */
export type ChangeSharing = Command<'ChangeSharing', { actor: Actor; enabled: boolean }>;
export type RefreshSharingToken = Command<'RefreshSharingToken', { actor: Actor; accessToken: string }>;

export type DashboardCommand =
  | CreateDashboard
  | UpdateDashboard
  | MoveTileIn
  | MoveTileOut
  | AddCollaborator
  | RemoveCollaborator
  | ChangeSharing
  | RefreshSharingToken;
