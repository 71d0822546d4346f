import type { Projection } from './projection';

/** Projects (the reference calls them teams), found by id or by their ingestion key. */
export const projectsProjection: Projection = {
  name: 'projects',
  version: 1,
  categories: ['project'],
  collections: { projects: [['organization_id'], ['api_token']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'projects', id: Number(event.streamId.slice('project-'.length)) }],
  evolve(doc, event) {
    const d = event.data;
    switch (event.type) {
      case 'ProjectCreated':
        return { _id: d.id, id: d.id, uuid: d.uuid, organization_id: d.organizationId, name: d.name, api_token: d.apiToken, created_at: d.at, updated_at: d.at };
      default:
        return doc;
    }
  },
};
