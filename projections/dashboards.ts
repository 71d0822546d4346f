import type { Tile } from '../domain/dashboard';
import type { Doc } from '../src/readstore/port';
import type { Projection } from './projection';

export type TileDoc = {
  id: number;
  layouts: Record<string, unknown>;
  color: string | null;
  text: { body: string } | null;
  insight: Record<string, unknown> | null;
  show_description: boolean | null;
  transparent_background: boolean | null;
};

export type CollaboratorDoc = { id: string; user_id: number; user_uuid: string; level: number; added_at: string; updated_at: string };

/** One document per dashboard: everything its views, its collaborators and its sharing configuration show. */
export type DashboardDoc = Doc & {
  _id: number;
  id: number;
  project_id: number;
  name: string;
  description: string;
  pinned: boolean;
  created_at: string;
  created_by: number | null;
  deleted: boolean;
  creation_mode: string;
  tags: string[];
  restriction_level: number;
  filters: Record<string, unknown>;
  tiles: TileDoc[];
  collaborators: CollaboratorDoc[];
  sharing: { enabled: boolean; access_token: string; created_at: string };
  last_modified_at: string;
  /** Stream revision: the ETag of the single-resource answers. */
  revision: number;
};

const tileDoc = (t: Tile): TileDoc => ({
  id: t.id,
  layouts: t.layouts,
  color: t.color,
  text: t.text,
  insight: t.insight,
  show_description: t.showDescription,
  transparent_background: t.transparentBackground,
});

const TILE_FIELDS = { layouts: 'layouts', color: 'color', text: 'text', showDescription: 'show_description', transparentBackground: 'transparent_background' } as const;

/** A change always moves last_modified_at forward, even if a clock went back between two writes. */
const later = (a: string, b: string) => (b > a ? b : a);

function next(doc: DashboardDoc, event: { type: string; data: any }): DashboardDoc {
  const d = event.data;
  switch (event.type) {
    case 'DashboardDetailsChanged':
      return { ...doc, ...d.changes };
    case 'DashboardRestrictionLevelChanged':
      return { ...doc, restriction_level: d.restrictionLevel };
    case 'DashboardDeleted':
      return { ...doc, deleted: true };
    case 'DashboardRestored':
      return { ...doc, deleted: false };
    case 'DashboardTileAdded':
      return { ...doc, tiles: [...doc.tiles.filter((t) => t.id !== d.tile.id), tileDoc(d.tile)] };
    case 'DashboardTileUpdated': {
      const changes = Object.fromEntries(Object.entries(d.changes).map(([k, v]) => [TILE_FIELDS[k as keyof typeof TILE_FIELDS] ?? k, v]));
      return { ...doc, tiles: doc.tiles.map((t) => (t.id === d.tileId ? { ...t, ...changes } : t)) };
    }
    case 'DashboardTileRemoved':
      return { ...doc, tiles: doc.tiles.filter((t) => t.id !== d.tileId) };
    case 'DashboardCollaboratorAdded':
      return {
        ...doc,
        collaborators: [
          ...doc.collaborators.filter((c) => c.user_uuid !== d.userUuid),
          { id: d.id, user_id: d.userId, user_uuid: d.userUuid, level: d.level, added_at: d.at, updated_at: d.at },
        ],
      };
    case 'DashboardCollaboratorRemoved':
      return { ...doc, collaborators: doc.collaborators.filter((c) => c.user_uuid !== d.userUuid) };
    case 'DashboardSharingEnabled':
      return { ...doc, sharing: { ...doc.sharing, enabled: true } };
    case 'DashboardSharingDisabled':
      return { ...doc, sharing: { ...doc.sharing, enabled: false } };
    case 'DashboardSharingTokenRefreshed':
      return { ...doc, sharing: { ...doc.sharing, access_token: d.accessToken } };
    default:
      return doc;
  }
}

export const dashboardsProjection: Projection = {
  name: 'dashboards',
  version: 1,
  categories: ['dashboard'],
  // The list's order (pinned first, then name, then id) is an index, so a page never sorts the whole project.
  collections: { dashboards: [['project_id', 'deleted', '-pinned', 'name', 'id']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'dashboards', id: Number(event.streamId.slice('dashboard-'.length)) }],
  evolve(doc, event) {
    const d = event.data;
    const revision = Number(event.revision);
    if (event.type === 'DashboardCreated') {
      const created: DashboardDoc = {
        _id: d.id,
        id: d.id,
        project_id: d.projectId,
        name: d.name,
        description: d.description,
        pinned: d.pinned,
        created_at: d.at,
        created_by: d.createdBy,
        deleted: false,
        creation_mode: d.creationMode,
        tags: d.tags,
        restriction_level: d.restrictionLevel,
        filters: d.filters,
        tiles: d.tiles.map(tileDoc),
        collaborators: [],
        sharing: { enabled: false, access_token: d.sharingAccessToken, created_at: d.at },
        last_modified_at: d.at,
        revision,
      };
      return created;
    }
    if (!doc) return null;
    const current = doc as DashboardDoc;
    const updated = next(current, event);
    if (updated === current) return doc;
    return { ...updated, revision, last_modified_at: later(current.last_modified_at, d.at) };
  },
};
