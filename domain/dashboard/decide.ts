import { DomainError, denied, invalid, notFound } from '../errors';
import {
  canEdit,
  canRestrict,
  NO_EDIT_RIGHTS,
  NO_EDIT_RIGHTS_ON_DESTINATION,
  NO_RESTRICT_RIGHTS,
  PrivilegeLevel,
  RESTRICTION_LEVELS,
  RestrictionLevel,
} from './access';
import type { CreateDashboard, DashboardCommand, TilePatch, UpdateDashboard } from './commands';
import type { DashboardDetails, DashboardEvent, Tile, TileChanges } from './events';
import { accessViewOf, ActiveDashboard, DashboardState } from './state';

export const TEXT_TILE_MAX_LENGTH = 4000;

/** Tags are trimmed, lower-cased and de-duplicated, as the reference stores them. */
export const normalizeTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0))];

function checkRestrictionLevel(level: number) {
  if (!RESTRICTION_LEVELS.includes(level)) throw invalid(`"${level}" is not a valid choice.`, 'restriction_level', 'invalid_choice');
}

/** A tile that cannot be stored is refused, never dropped. */
function checkTile(tile: Pick<Tile, 'text' | 'insight'>) {
  if ((tile.text === null) === (tile.insight === null)) throw invalid('A tile holds either a text or an insight.', 'tiles');
  if (tile.text && tile.text.body.length > TEXT_TILE_MAX_LENGTH) {
    throw invalid(`Ensure this field has no more than ${TEXT_TILE_MAX_LENGTH} characters.`, 'tiles', 'max_length');
  }
}

function active(state: DashboardState): ActiveDashboard {
  if (state.status !== 'active') throw notFound();
  return state;
}

/** Sub-resources and tile actions of a soft-deleted dashboard are hidden, as the dashboard itself is. */
function live(state: DashboardState): ActiveDashboard {
  const dashboard = active(state);
  if (dashboard.deleted) throw notFound();
  return dashboard;
}

function create(command: CreateDashboard, state: DashboardState): DashboardEvent[] {
  if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This dashboard already exists.');
  const d = command.data;
  const at = command.metadata.now;
  if (d.useTemplate && d.useDashboard) throw invalid('`use_dashboard` and `use_template` cannot be used together');
  if (d.useTemplate && !d.useTemplate.found) throw invalid(`Invalid template provided: ${d.useTemplate.key}`, 'use_template');
  if (d.useDashboard && !d.useDashboard.found) throw invalid('Invalid value provided', 'use_dashboard');
  checkRestrictionLevel(d.restrictionLevel);
  const source = d.useTemplate?.found ?? d.useDashboard?.found ?? null;
  const tiles = [...(source?.tiles ?? []), ...d.tiles.filter((t) => !t.deleted).map(newTile)];
  tiles.forEach(checkTile);
  if (new Set(tiles.map((t) => t.id)).size !== tiles.length) throw new Error('CreateDashboard needs a distinct id for every tile');
  const events: DashboardEvent[] = [
    {
      type: 'DashboardCreated',
      data: {
        id: d.id,
        projectId: d.projectId,
        name: d.name,
        description: d.description,
        pinned: d.pinned,
        tags: normalizeTags(d.tags),
        filters: d.filters ?? source?.filters ?? {},
        restrictionLevel: d.restrictionLevel,
        creationMode: d.useTemplate ? 'template' : d.useDashboard ? 'duplicate' : 'default',
        tiles,
        createdBy: d.createdBy,
        sharingAccessToken: d.sharingAccessToken,
        at,
      },
    },
  ];
  if (d.deleted) events.push({ type: 'DashboardDeleted', data: { at } });
  return events;
}

/** Tiles added through the API are text tiles (insights arrive only through templates and duplicates). */
function newTile(patch: TilePatch): Tile {
  if (!patch.text) throw invalid('A new tile needs a text with a body.', 'tiles');
  if (patch.newId === undefined) throw new Error('a new tile needs its allocated newId');
  return {
    id: patch.newId,
    layouts: patch.layouts ?? {},
    color: patch.color ?? null,
    text: { body: patch.text.body },
    insight: null,
    showDescription: patch.showDescription ?? null,
    transparentBackground: patch.transparentBackground ?? null,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function tileEvents(patches: TilePatch[], dashboard: ActiveDashboard, at: string): DashboardEvent[] {
  const events: DashboardEvent[] = [];
  let tiles = dashboard.tiles;
  for (const patch of patches) {
    if (patch.id === undefined) {
      if (patch.deleted) continue; // asked not to exist: there is nothing to store
      const tile = newTile(patch);
      checkTile(tile);
      tiles = [...tiles, tile];
      events.push({ type: 'DashboardTileAdded', data: { tile, at } });
      continue;
    }
    const current = tiles.find((t) => t.id === patch.id);
    if (!current) throw invalid(`Tile ${patch.id} is not on this dashboard.`, 'tiles');
    if (patch.deleted) {
      tiles = tiles.filter((t) => t.id !== patch.id);
      events.push({ type: 'DashboardTileRemoved', data: { tileId: patch.id, at } });
      continue;
    }
    if (patch.text && current.insight) throw invalid('An insight tile has no text to edit.', 'tiles');
    const changes: TileChanges = {};
    if (patch.text && !same(patch.text, current.text)) changes.text = { body: patch.text.body };
    if (patch.layouts !== undefined && !same(patch.layouts, current.layouts)) changes.layouts = patch.layouts;
    if (patch.color !== undefined && patch.color !== current.color) changes.color = patch.color;
    if (patch.showDescription !== undefined && patch.showDescription !== current.showDescription) changes.showDescription = patch.showDescription;
    if (patch.transparentBackground !== undefined && patch.transparentBackground !== current.transparentBackground) {
      changes.transparentBackground = patch.transparentBackground;
    }
    if (Object.keys(changes).length === 0) continue;
    const updated = { ...current, ...changes };
    checkTile(updated);
    tiles = tiles.map((t) => (t.id === patch.id ? updated : t));
    events.push({ type: 'DashboardTileUpdated', data: { tileId: patch.id, changes, at } });
  }
  return events;
}

/** A soft-deleted dashboard can still be patched (that is how it is restored), as in the reference. */
function update(command: UpdateDashboard, state: DashboardState): DashboardEvent[] {
  const dashboard = active(state);
  const d = command.data;
  const at = command.metadata.now;
  const view = accessViewOf(dashboard, d.actor.userId);
  if (!canEdit(view, d.actor)) throw denied(NO_EDIT_RIGHTS);
  if (d.restrictionLevel !== undefined && d.restrictionLevel !== dashboard.restrictionLevel) {
    if (!canRestrict(view, d.actor)) throw denied(NO_RESTRICT_RIGHTS);
    checkRestrictionLevel(d.restrictionLevel);
  }
  const events: DashboardEvent[] = [];
  if (d.deleted === false && dashboard.deleted) events.push({ type: 'DashboardRestored', data: { at } });

  const changes: Partial<DashboardDetails> = {};
  if (d.name !== undefined && d.name !== dashboard.name) changes.name = d.name;
  if (d.description !== undefined && d.description !== dashboard.description) changes.description = d.description;
  if (d.pinned !== undefined && d.pinned !== dashboard.pinned) changes.pinned = d.pinned;
  if (d.tags !== undefined) {
    const tags = normalizeTags(d.tags);
    if (!same(tags, dashboard.tags)) changes.tags = tags;
  }
  if (d.filters !== undefined && !same(d.filters, dashboard.filters)) changes.filters = d.filters;
  if (Object.keys(changes).length > 0) events.push({ type: 'DashboardDetailsChanged', data: { changes, at } });
  if (d.restrictionLevel !== undefined && d.restrictionLevel !== dashboard.restrictionLevel) {
    events.push({ type: 'DashboardRestrictionLevelChanged', data: { restrictionLevel: d.restrictionLevel, at } });
  }
  if (d.tiles) events.push(...tileEvents(d.tiles, dashboard, at));
  if (d.deleted === true && !dashboard.deleted) events.push({ type: 'DashboardDeleted', data: { at } });
  return events;
}

export function decide(command: DashboardCommand, state: DashboardState): DashboardEvent[] {
  const at = command.metadata.now;
  switch (command.type) {
    case 'CreateDashboard':
      return create(command, state);
    case 'UpdateDashboard':
      return update(command, state);
    case 'MoveTileIn': {
      const target = live(state);
      const { actor, tile, fromDashboardId } = command.data;
      if (!canEdit(accessViewOf(target, actor.userId), actor)) throw denied(NO_EDIT_RIGHTS_ON_DESTINATION);
      // A repeated move (after a crash between the two steps) finds the tile already here.
      if (target.tiles.some((t) => t.id === tile.id)) return [];
      return [{ type: 'DashboardTileAdded', data: { tile, movedFrom: fromDashboardId, at } }];
    }
    case 'MoveTileOut': {
      const source = live(state);
      const { actor, tileId, toDashboardId } = command.data;
      if (!source.tiles.some((t) => t.id === tileId)) throw notFound();
      if (!canEdit(accessViewOf(source, actor.userId), actor)) throw denied(NO_EDIT_RIGHTS);
      return [{ type: 'DashboardTileRemoved', data: { tileId, movedTo: toDashboardId, at } }];
    }
    case 'AddCollaborator': {
      const dashboard = live(state);
      const { actor, id, level, user } = command.data;
      if (!canEdit(accessViewOf(dashboard, actor.userId), actor)) throw denied(NO_EDIT_RIGHTS);
      if (dashboard.restrictionLevel <= RestrictionLevel.everyoneInProjectCanEdit) {
        throw invalid('Cannot add collaborators to a dashboard on the lowest restriction level.');
      }
      if (level !== PrivilegeLevel.canEdit) throw invalid('Only edit access can be explicitly specified currently.');
      if (!user) throw invalid('User does not exist.');
      if (!user.hasProjectAccess) throw invalid('Cannot add collaborators that have no access to the project.');
      if (canRestrict(accessViewOf(dashboard, user.id), { userId: user.id, organizationLevel: user.organizationLevel })) {
        throw invalid('Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).');
      }
      if (dashboard.collaborators.some((c) => c.userId === user.id)) throw invalid('User already is a collaborator.');
      return [{ type: 'DashboardCollaboratorAdded', data: { id, userId: user.id, userUuid: user.uuid, level, at } }];
    }
    case 'RemoveCollaborator': {
      const dashboard = live(state);
      const { actor, userUuid } = command.data;
      if (!canEdit(accessViewOf(dashboard, actor.userId), actor)) throw denied(NO_EDIT_RIGHTS);
      const collaborator = dashboard.collaborators.find((c) => c.userUuid === userUuid.toLowerCase());
      if (!collaborator) throw notFound();
      if (dashboard.restrictionLevel < RestrictionLevel.onlyCollaboratorsCanEdit) {
        throw invalid('Cannot remove collaborators from a dashboard on the lowest restriction level.');
      }
      return [{ type: 'DashboardCollaboratorRemoved', data: { userId: collaborator.userId, userUuid: collaborator.userUuid, at } }];
    }
    case 'ChangeSharing': {
      const dashboard = live(state);
      if (!canEdit(accessViewOf(dashboard, command.data.actor.userId), command.data.actor)) throw denied(NO_EDIT_RIGHTS);
      if (command.data.enabled === dashboard.sharingEnabled) return [];
      return [{ type: command.data.enabled ? 'DashboardSharingEnabled' : 'DashboardSharingDisabled', data: { at } }];
    }
    case 'RefreshSharingToken': {
      const dashboard = live(state);
      if (!canEdit(accessViewOf(dashboard, command.data.actor.userId), command.data.actor)) throw denied(NO_EDIT_RIGHTS);
      return [{ type: 'DashboardSharingTokenRefreshed', data: { accessToken: command.data.accessToken, at } }];
    }
  }
}
