import type { Doc } from '../../src/readstore/port';
import { dashboardsProjection } from '../../projections/dashboards';
import { applyEvent, documentKey, ProjectedEvent } from '../../projections/projection';

const tile = (id: number, body: string) => ({
  id,
  layouts: { sm: { x: 0, y: id, w: 6, h: 5 } },
  color: null,
  text: { body },
  insight: null,
  showDescription: null,
  transparentBackground: null,
});

const events: Array<Pick<ProjectedEvent, 'type' | 'data'>> = [
  {
    type: 'DashboardCreated',
    data: {
      id: 4, projectId: 1, name: 'Board', description: 'd', pinned: false, tags: ['a'], filters: { date_from: '-7d' }, restrictionLevel: 21,
      creationMode: 'default', tiles: [tile(1, 'one')], createdBy: 1, sharingAccessToken: 'tok', at: '2026-01-01T00:00:00.000Z',
    },
  },
  { type: 'DashboardDetailsChanged', data: { changes: { name: 'Renamed', pinned: true }, at: '2026-01-01T00:00:01.000Z' } },
  { type: 'DashboardRestrictionLevelChanged', data: { restrictionLevel: 37, at: '2026-01-01T00:00:02.000Z' } },
  { type: 'DashboardTileAdded', data: { tile: tile(2, 'two'), at: '2026-01-01T00:00:03.000Z' } },
  { type: 'DashboardTileUpdated', data: { tileId: 1, changes: { text: { body: 'uno' }, showDescription: true }, at: '2026-01-01T00:00:04.000Z' } },
  { type: 'DashboardCollaboratorAdded', data: { id: 'c1', userId: 3, userUuid: 'u3', level: 37, at: '2026-01-01T00:00:05.000Z' } },
  { type: 'DashboardSharingEnabled', data: { at: '2026-01-01T00:00:06.000Z' } },
  { type: 'DashboardSharingTokenRefreshed', data: { accessToken: 'tok2', at: '2026-01-01T00:00:07.000Z' } },
  { type: 'DashboardTileRemoved', data: { tileId: 2, movedTo: 9, at: '2026-01-01T00:00:08.000Z' } },
  { type: 'DashboardCollaboratorRemoved', data: { userId: 3, userUuid: 'u3', at: '2026-01-01T00:00:09.000Z' } },
  { type: 'DashboardSharingDisabled', data: { at: '2026-01-01T00:00:10.000Z' } },
  { type: 'DashboardDeleted', data: { at: '2026-01-01T00:00:11.000Z' } },
  // A clock that went back: last_modified_at still never moves backwards.
  { type: 'DashboardRestored', data: { at: '2026-01-01T00:00:05.000Z' } },
];

const projected = (e: (typeof events)[number], i: number): ProjectedEvent => ({
  ...e,
  metadata: {},
  streamId: 'dashboard-4',
  revision: BigInt(i),
  position: BigInt(100 + i),
});

const key = documentKey({ collection: 'dashboards', id: 4 });

describe('dashboards projection', () => {
  it('applies every event once, whatever the number of deliveries', () => {
    const docs = new Map<string, Doc | null>();
    const snapshots: unknown[] = [];
    events.forEach((e, i) => {
      applyEvent(dashboardsProjection, projected(e, i), docs);
      const once = structuredClone(docs.get(key));
      expect(applyEvent(dashboardsProjection, projected(e, i), docs)).toEqual([]);
      expect(docs.get(key)).toEqual(once);
      snapshots.push(once);
    });
    const [createdDoc, renamed, restricted, withTwo, edited, collaborated, shared, refreshed, moved, uncollaborated, unshared, deleted, restored] =
      snapshots as any[];
    expect(createdDoc).toMatchObject({ id: 4, project_id: 1, name: 'Board', created_by: 1, sharing: { enabled: false, access_token: 'tok' }, revision: 0 });
    expect(renamed).toMatchObject({ name: 'Renamed', pinned: true, last_modified_at: '2026-01-01T00:00:01.000Z', revision: 1 });
    expect(restricted.restriction_level).toBe(37);
    expect(withTwo.tiles.map((t: any) => t.id)).toEqual([1, 2]);
    expect(edited.tiles[0]).toMatchObject({ text: { body: 'uno' }, show_description: true });
    expect(collaborated.collaborators).toEqual([{ id: 'c1', user_id: 3, user_uuid: 'u3', level: 37, added_at: '2026-01-01T00:00:05.000Z', updated_at: '2026-01-01T00:00:05.000Z' }]);
    expect(shared.sharing.enabled).toBe(true);
    expect(refreshed.sharing.access_token).toBe('tok2');
    expect(moved.tiles.map((t: any) => t.id)).toEqual([1]);
    expect(uncollaborated.collaborators).toEqual([]);
    expect(unshared.sharing.enabled).toBe(false);
    expect(deleted.deleted).toBe(true);
    expect(restored).toMatchObject({ deleted: false, last_modified_at: '2026-01-01T00:00:11.000Z', revision: 12 });
  });
});
