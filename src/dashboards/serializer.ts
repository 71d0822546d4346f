import type { DashboardDoc, TileDoc, CollaboratorDoc } from '../../projections/dashboards';
import { Actor, effectivePrivilegeLevel } from '../../domain/dashboard';
import { userSummary, type UserDoc } from '../identity/documents';

/** The sm layout's y then x, as the reference orders tiles; tiles without a layout come last. */
function position(tile: TileDoc): [number, number] {
  const sm = (tile.layouts as { sm?: { x?: unknown; y?: unknown } })?.sm;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER);
  return [num(sm?.y), num(sm?.x)];
}

export function serializeTiles(dashboard: DashboardDoc) {
  const ordered = [...dashboard.tiles].sort((a, b) => {
    const [ay, ax] = position(a);
    const [by, bx] = position(b);
    return ay - by || ax - bx || a.id - b.id;
  });
  return ordered.map((tile, order) => ({
    id: tile.id,
    dashboard_id: dashboard.id,
    layouts: tile.layouts,
    color: tile.color,
    text: tile.text,
    insight: tile.insight,
    order,
    show_description: tile.show_description,
    transparent_background: tile.transparent_background,
    last_refresh: null,
    is_cached: false,
  }));
}

/** The list item: exactly the interface's list fields. */
export function serializeDashboardListItem(dashboard: DashboardDoc, creator: UserDoc | null | undefined, actor: Actor) {
  return {
    id: dashboard.id,
    name: dashboard.name,
    description: dashboard.description,
    pinned: dashboard.pinned,
    created_at: dashboard.created_at,
    created_by: userSummary(creator),
    is_shared: dashboard.sharing.enabled,
    deleted: dashboard.deleted,
    creation_mode: dashboard.creation_mode,
    tags: dashboard.tags,
    restriction_level: dashboard.restriction_level,
    effective_restriction_level: dashboard.restriction_level,
    effective_privilege_level: effectivePrivilegeLevel(
      {
        restrictionLevel: dashboard.restriction_level,
        createdBy: dashboard.created_by,
        collaboratorLevel: dashboard.collaborators.find((c) => c.user_id === actor.userId)?.level,
      },
      actor,
    ),
  };
}

/** Create, retrieve and update answers: the list fields plus the write-only echoes, filters and tiles. */
export function serializeDashboard(dashboard: DashboardDoc, creator: UserDoc | null | undefined, actor: Actor) {
  return {
    ...serializeDashboardListItem(dashboard, creator, actor),
    use_template: '',
    use_dashboard: null,
    delete_insights: false,
    filters: dashboard.filters,
    tiles: serializeTiles(dashboard),
  };
}

export function serializeCollaborator(dashboard: DashboardDoc, collaborator: CollaboratorDoc, user: UserDoc | null | undefined) {
  return {
    id: collaborator.id,
    dashboard_id: dashboard.id,
    user: userSummary(user),
    level: collaborator.level,
    added_at: collaborator.added_at,
    updated_at: collaborator.updated_at,
    user_uuid: collaborator.user_uuid,
  };
}

export function serializeSharing(dashboard: DashboardDoc) {
  return { created_at: dashboard.sharing.created_at, enabled: dashboard.sharing.enabled, access_token: dashboard.sharing.access_token };
}
