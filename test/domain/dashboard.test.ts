import { dashboardDecider, DashboardEvent, Tile } from '../../domain/dashboard';
import type { CreateDashboard, DashboardCommand } from '../../domain/dashboard';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(dashboardDecider);
const at = '2026-01-01T00:00:00.000Z';
const CREATOR = 1;
const admin = { userId: 2, organizationLevel: 8 };
const member = { userId: 3, organizationLevel: 1 };
const creator = { userId: CREATOR, organizationLevel: 1 };

const textTile = (id: number, body = 'hello'): Tile => ({
  id,
  layouts: { sm: { x: 0, y: 0, w: 6, h: 5 } },
  color: null,
  text: { body },
  insight: null,
  showDescription: null,
  transparentBackground: null,
});

const createCommand = (data: Partial<CreateDashboard['data']> = {}): CreateDashboard => ({
  type: 'CreateDashboard',
  data: {
    id: 7,
    projectId: 1,
    name: 'Board',
    description: '',
    pinned: false,
    deleted: false,
    tags: [],
    restrictionLevel: 21,
    tiles: [],
    sharingAccessToken: 'tok',
    createdBy: CREATOR,
    ...data,
  },
  metadata: meta(at, CREATOR),
});

const created = (data: Partial<Extract<DashboardEvent, { type: 'DashboardCreated' }>['data']> = {}): DashboardEvent => ({
  type: 'DashboardCreated',
  data: {
    id: 7,
    projectId: 1,
    name: 'Board',
    description: '',
    pinned: false,
    tags: [],
    filters: {},
    restrictionLevel: 21,
    creationMode: 'default',
    tiles: [],
    createdBy: CREATOR,
    sharingAccessToken: 'tok',
    at,
    ...data,
  },
});

const cmd = <C extends DashboardCommand>(type: C['type'], data: C['data'], userId = 1) => ({ type, data, metadata: meta(at, userId) }) as C;
const restricted = created({ restrictionLevel: 37 });

describe('dashboard decider: CreateDashboard', () => {
  it('creates a default dashboard with normalized tags and its request tiles', () => {
    spec
      .given([])
      .when(createCommand({ tags: [' Growth', 'growth', 'KPI ', ''], tiles: [{ newId: 11, text: { body: 'hi' }, layouts: { sm: { x: 0, y: 0 } } }] }))
      .then([created({ tags: ['growth', 'kpi'], tiles: [{ ...textTile(11, 'hi'), layouts: { sm: { x: 0, y: 0 } } }] })]);
  });

  it('takes filters and tiles from a template and marks it template', () => {
    const source = { filters: { date_from: '-7d' }, tiles: [textTile(20)] };
    spec.given([]).when(createCommand({ useTemplate: { key: 'X', found: source } })).then([created({ creationMode: 'template', filters: { date_from: '-7d' }, tiles: [textTile(20)] })]);
  });

  it('duplicates a dashboard, keeping given filters over the source ones', () => {
    const source = { filters: { a: 1 }, tiles: [textTile(30)] };
    spec
      .given([])
      .when(createCommand({ useDashboard: { id: 3, found: source }, filters: { b: 2 } }))
      .then([created({ creationMode: 'duplicate', filters: { b: 2 }, tiles: [textTile(30)] })]);
  });

  it('records a dashboard created deleted as created then deleted', () => {
    spec.given([]).when(createCommand({ deleted: true })).then([created(), { type: 'DashboardDeleted', data: { at } }]);
  });

  it('refuses both use_template and use_dashboard', () => {
    spec
      .given([])
      .when(createCommand({ useTemplate: { key: 'DEFAULT_APP', found: { filters: {}, tiles: [] } }, useDashboard: { id: 1, found: { filters: {}, tiles: [] } } }))
      .thenThrows({ kind: 'validation', detail: '`use_dashboard` and `use_template` cannot be used together', attr: null });
  });

  it('refuses an unknown template and an unknown source dashboard', () => {
    spec.given([]).when(createCommand({ useTemplate: { key: 'NOPE', found: null } })).thenThrows({ detail: 'Invalid template provided: NOPE', attr: 'use_template' });
    spec.given([]).when(createCommand({ useDashboard: { id: 99, found: null } })).thenThrows({ detail: 'Invalid value provided', attr: 'use_dashboard' });
  });

  it('refuses a restriction level other than 21 or 37', () => {
    spec.given([]).when(createCommand({ restrictionLevel: 22 })).thenThrows({ code: 'invalid_choice', attr: 'restriction_level' });
  });

  it('refuses a tile without text and a text over 4000 characters', () => {
    spec.given([]).when(createCommand({ tiles: [{ newId: 1, layouts: {} }] })).thenThrows({ kind: 'validation', attr: 'tiles' });
    spec
      .given([])
      .when(createCommand({ tiles: [{ newId: 1, text: { body: 'x'.repeat(4001) } }] }))
      .thenThrows({ code: 'max_length', attr: 'tiles' });
  });

  it('refuses to create twice', () => {
    spec.given([created()]).when(createCommand()).thenThrows({ kind: 'conflict' });
  });
});

describe('dashboard decider: UpdateDashboard', () => {
  const update = (data: Record<string, unknown>, actor = creator) => cmd('UpdateDashboard', { actor, ...data } as any, actor.userId);

  it('records only what changed', () => {
    spec
      .given([created()])
      .when(update({ name: 'New', description: '', pinned: true, tags: ['A'], filters: {} }))
      .then([{ type: 'DashboardDetailsChanged', data: { changes: { name: 'New', pinned: true, tags: ['a'] }, at } }]);
    spec.given([created()]).when(update({ name: 'Board' })).thenNothingHappened();
  });

  it('soft-deletes and restores', () => {
    spec.given([created()]).when(update({ deleted: true })).then([{ type: 'DashboardDeleted', data: { at } }]);
    spec.given([created(), { type: 'DashboardDeleted', data: { at } }]).when(update({ deleted: false })).then([{ type: 'DashboardRestored', data: { at } }]);
  });

  it('adds, edits and removes tiles', () => {
    spec
      .given([created({ tiles: [textTile(1), textTile(2)] })])
      .when(update({ tiles: [{ newId: 3, text: { body: 'new' } }, { id: 1, text: { body: 'edited' }, color: 'blue' }, { id: 2, deleted: true }] }))
      .then([
        { type: 'DashboardTileAdded', data: { tile: { ...textTile(3, 'new'), layouts: {} }, at } },
        { type: 'DashboardTileUpdated', data: { tileId: 1, changes: { text: { body: 'edited' }, color: 'blue' }, at } },
        { type: 'DashboardTileRemoved', data: { tileId: 2, at } },
      ]);
  });

  it('refuses a tile id that is not on the dashboard, and a new tile without text', () => {
    spec.given([created()]).when(update({ tiles: [{ id: 99, text: { body: 'x' } }] })).thenThrows({ kind: 'validation', attr: 'tiles' });
    spec.given([created()]).when(update({ tiles: [{ newId: 5, color: 'red' }] })).thenThrows({ kind: 'validation', attr: 'tiles' });
  });

  it('lets anyone in the project edit a level-21 dashboard, but only restrictors change the level', () => {
    spec.given([created()]).when(update({ name: 'x' }, member)).then([{ type: 'DashboardDetailsChanged', data: { changes: { name: 'x' }, at } }]);
    spec
      .given([created()])
      .when(update({ restrictionLevel: 37 }, member))
      .thenThrows({
        kind: 'permission',
        detail: "Only the dashboard owner and project admins have the restriction rights required to change the dashboard's restriction level.",
      });
    spec.given([created()]).when(update({ restrictionLevel: 37 }, admin)).then([{ type: 'DashboardRestrictionLevelChanged', data: { restrictionLevel: 37, at } }]);
    spec.given([created()]).when(update({ restrictionLevel: 21 }, member)).thenNothingHappened();
  });

  it('lets only the creator, admins and edit collaborators edit a level-37 dashboard', () => {
    spec.given([restricted]).when(update({ name: 'x' }, member)).thenThrows({ kind: 'permission', detail: "You don't have edit permissions for this dashboard." });
    spec.given([restricted]).when(update({ name: 'x' }, admin)).then([{ type: 'DashboardDetailsChanged', data: { changes: { name: 'x' }, at } }]);
    const collaborator: DashboardEvent = { type: 'DashboardCollaboratorAdded', data: { id: 'c', userId: 3, userUuid: 'u3', level: 37, at } };
    spec.given([restricted, collaborator]).when(update({ name: 'x' }, member)).then([{ type: 'DashboardDetailsChanged', data: { changes: { name: 'x' }, at } }]);
    spec.given([restricted, collaborator]).when(update({ restrictionLevel: 21 }, member)).thenThrows({ kind: 'permission' });
  });

  it('is not found before creation', () => {
    spec.given([]).when(update({ name: 'x' })).thenThrows({ kind: 'not_found' });
  });
});

describe('dashboard decider: move_tile', () => {
  it('adds the tile to the destination, once', () => {
    spec
      .given([created()])
      .when(cmd('MoveTileIn', { actor: member, tile: textTile(5), fromDashboardId: 8 }))
      .then([{ type: 'DashboardTileAdded', data: { tile: textTile(5), movedFrom: 8, at } }]);
    spec.given([created({ tiles: [textTile(5)] })]).when(cmd('MoveTileIn', { actor: member, tile: textTile(5), fromDashboardId: 8 })).thenNothingHappened();
  });

  it('needs edit rights on the destination', () => {
    spec
      .given([restricted])
      .when(cmd('MoveTileIn', { actor: member, tile: textTile(5), fromDashboardId: 8 }))
      .thenThrows({ kind: 'permission', detail: "You don't have edit permissions for the destination dashboard." });
  });

  it('removes the tile from the source; a tile not there or a deleted dashboard is not found', () => {
    spec
      .given([created({ tiles: [textTile(5)] })])
      .when(cmd('MoveTileOut', { actor: member, tileId: 5, toDashboardId: 9 }))
      .then([{ type: 'DashboardTileRemoved', data: { tileId: 5, movedTo: 9, at } }]);
    spec.given([created()]).when(cmd('MoveTileOut', { actor: member, tileId: 5, toDashboardId: 9 })).thenThrows({ kind: 'not_found' });
    spec
      .given([created(), { type: 'DashboardDeleted', data: { at } }])
      .when(cmd('MoveTileIn', { actor: member, tile: textTile(5), fromDashboardId: 8 }))
      .thenThrows({ kind: 'not_found' });
  });
});

describe('dashboard decider: collaborators', () => {
  const target = { id: 3, uuid: 'u3', hasProjectAccess: true, organizationLevel: 1 };
  const add = (data: Record<string, unknown> = {}) => cmd('AddCollaborator', { actor: creator, id: 'c1', level: 37, user: target, ...data } as any);
  const added: DashboardEvent = { type: 'DashboardCollaboratorAdded', data: { id: 'c1', userId: 3, userUuid: 'u3', level: 37, at } };

  it('adds an edit collaborator to a restricted dashboard', () => {
    spec.given([restricted]).when(add()).then([added]);
  });

  it.each([
    ['the lowest restriction level', [created()], {}, 'Cannot add collaborators to a dashboard on the lowest restriction level.'],
    ['a level other than 37', [restricted], { level: 21 }, 'Only edit access can be explicitly specified currently.'],
    ['an unknown user', [restricted], { user: null }, 'User does not exist.'],
    ['a user without project access', [restricted], { user: { ...target, hasProjectAccess: false } }, 'Cannot add collaborators that have no access to the project.'],
    [
      'an organization admin',
      [restricted],
      { user: { ...target, organizationLevel: 8 } },
      'Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).',
    ],
    [
      'the creator',
      [restricted],
      { user: { ...target, id: CREATOR, uuid: 'u1' } },
      'Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).',
    ],
    ['a duplicate', [restricted, added], {}, 'User already is a collaborator.'],
  ])('refuses %s', (_name, given, data, detail) => {
    spec.given(given as DashboardEvent[]).when(add(data)).thenThrows({ kind: 'validation', detail, attr: null });
  });

  it('needs edit rights to add', () => {
    spec.given([restricted]).when(add({ actor: member })).thenThrows({ kind: 'permission' });
  });

  it('removes a collaborator; a non-collaborator is not found; level 21 refuses', () => {
    spec
      .given([restricted, added])
      .when(cmd('RemoveCollaborator', { actor: creator, userUuid: 'u3' }))
      .then([{ type: 'DashboardCollaboratorRemoved', data: { userId: 3, userUuid: 'u3', at } }]);
    spec.given([restricted]).when(cmd('RemoveCollaborator', { actor: creator, userUuid: 'u3' })).thenThrows({ kind: 'not_found' });
    spec
      .given([restricted, added, { type: 'DashboardRestrictionLevelChanged', data: { restrictionLevel: 21, at } }])
      .when(cmd('RemoveCollaborator', { actor: creator, userUuid: 'u3' }))
      .thenThrows({ kind: 'validation', detail: 'Cannot remove collaborators from a dashboard on the lowest restriction level.' });
  });
});

describe('dashboard decider: sharing', () => {
  it('enables and disables, recording nothing when unchanged', () => {
    spec.given([created()]).when(cmd('ChangeSharing', { actor: member, enabled: true })).then([{ type: 'DashboardSharingEnabled', data: { at } }]);
    spec.given([created()]).when(cmd('ChangeSharing', { actor: member, enabled: false })).thenNothingHappened();
    spec
      .given([created(), { type: 'DashboardSharingEnabled', data: { at } }])
      .when(cmd('ChangeSharing', { actor: member, enabled: false }))
      .then([{ type: 'DashboardSharingDisabled', data: { at } }]);
  });

  it('refreshes the token with the one given', () => {
    spec.given([created()]).when(cmd('RefreshSharingToken', { actor: member, accessToken: 'new' })).then([{ type: 'DashboardSharingTokenRefreshed', data: { accessToken: 'new', at } }]);
  });

  it('needs edit rights on a restricted dashboard to publish it or change its link', () => {
    const restricted = created({ restrictionLevel: 37 });
    spec.given([restricted]).when(cmd('ChangeSharing', { actor: member, enabled: true })).thenThrows({ kind: 'permission', detail: "You don't have edit permissions for this dashboard." });
    spec.given([restricted]).when(cmd('RefreshSharingToken', { actor: member, accessToken: 'x' })).thenThrows({ kind: 'permission' });
    spec.given([restricted]).when(cmd('ChangeSharing', { actor: creator, enabled: true })).then([{ type: 'DashboardSharingEnabled', data: { at } }]);
    spec.given([restricted]).when(cmd('ChangeSharing', { actor: admin, enabled: true })).then([{ type: 'DashboardSharingEnabled', data: { at } }]);
  });

  it('hides the sharing of a deleted dashboard', () => {
    spec.given([created(), { type: 'DashboardDeleted', data: { at } }]).when(cmd('ChangeSharing', { actor: member, enabled: true })).thenThrows({ kind: 'not_found' });
  });
});
