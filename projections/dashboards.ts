import type { Projection } from './projection';

/** Placeholder until the dashboards read model lands. */
export const dashboardsProjection: Projection = {
  name: 'dashboards',
  version: 1,
  categories: ['dashboard'],
  collections: { dashboards: [['project_id', 'deleted']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'dashboards', id: Number(event.streamId.slice('dashboard-'.length)) }],
  evolve: (doc) => doc,
};
