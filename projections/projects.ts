import type { Projection } from './projection';

/** Projects (the reference calls them teams), found by id or by their ingestion key. */
export const projectsProjection: Projection = {
  name: 'projects',
  version: 1,
  categories: ['project', 'organization'],
  collections: { projects: [['organization_id'], ['api_token']] },
  lag: 'awaited',
  keys(event) {
    if (event.streamId.startsWith('project-')) return [{ collection: 'projects', id: Number(event.streamId.slice('project-'.length)) }];
    // A deleted organization takes its projects along: their ingestion keys stop resolving with them.
    if (event.type === 'OrganizationDeleted') return (event.data.projectIds as number[]).map((id) => ({ collection: 'projects', id }));
    return [];
  },
  evolve(doc, event) {
    const d = event.data;
    switch (event.type) {
      case 'ProjectCreated':
        return { _id: d.id, id: d.id, uuid: d.uuid, organization_id: d.organizationId, name: d.name, api_token: d.apiToken, created_at: d.at, updated_at: d.at };
      case 'ProjectUpdated':
        return doc && { ...doc, ...(d.name === undefined ? {} : { name: d.name }), updated_at: d.at };
      case 'ProjectTokenReset':
        return doc && { ...doc, api_token: d.apiToken, updated_at: d.at };
      case 'OrganizationDeleted':
        return null;
      default:
        return doc;
    }
  },
};
