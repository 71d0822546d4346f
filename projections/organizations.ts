import type { Projection } from './projection';

/** Organizations with what their list and detail views show: member count and projects (teams) included. */
export const organizationsProjection: Projection = {
  name: 'organizations',
  version: 1,
  categories: ['organization', 'project'],
  collections: { organizations: [['slug']] },
  lag: 'awaited',
  keys: (event) =>
    event.type === 'ProjectCreated'
      ? [{ collection: 'organizations', id: event.data.organizationId }]
      : [{ collection: 'organizations', id: event.streamId.slice('organization-'.length) }],
  evolve(doc, event) {
    const d = event.data;
    switch (event.type) {
      case 'OrganizationCreated':
        return {
          _id: d.id,
          id: d.id,
          name: d.name,
          slug: d.slug,
          logo_media_id: null,
          created_at: d.at,
          updated_at: d.at,
          plugins_access_level: d.pluginsAccessLevel,
          is_member_join_email_enabled: true,
          enforce_2fa: null,
          metadata: '',
          customer_id: '',
          member_count: 0,
          teams: [],
        };
      case 'OrganizationMemberJoined':
        return doc && { ...doc, member_count: doc.member_count + 1 };
      case 'ProjectCreated':
        return doc && { ...doc, teams: [...doc.teams, { id: d.id, uuid: d.uuid, name: d.name, api_token: d.apiToken, organization: d.organizationId }] };
      default:
        return doc;
    }
  },
};
