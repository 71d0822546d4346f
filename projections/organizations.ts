import type { Projection } from './projection';

const orgIdOf = (streamId: string) => streamId.slice('organization-'.length);

/** Organizations with what their list and detail views show: member count and projects (teams) included. */
export const organizationsProjection: Projection = {
  name: 'organizations',
  version: 1,
  categories: ['organization', 'project'],
  collections: { organizations: [['slug']] },
  lag: 'awaited',
  keys: (event) =>
    event.streamId.startsWith('project-')
      ? [{ collection: 'organizations', id: event.data.organizationId }]
      : [{ collection: 'organizations', id: orgIdOf(event.streamId) }],
  evolve(doc, event) {
    const d = event.data;
    if (event.type === 'OrganizationCreated') {
      return {
        _id: d.id,
        id: d.id,
        name: d.name,
        slug: d.slug,
        logo_media_id: d.logoMediaId ?? null,
        created_at: d.at,
        updated_at: d.at,
        plugins_access_level: d.pluginsAccessLevel,
        is_member_join_email_enabled: d.isMemberJoinEmailEnabled ?? true,
        enforce_2fa: d.enforce2fa ?? null,
        metadata: '',
        customer_id: '',
        member_count: 0,
        teams: [],
      };
    }
    if (!doc) return doc;
    const team = (id: number, change: Record<string, unknown>) => ({
      ...doc,
      teams: doc.teams.map((t: { id: number }) => (t.id === id ? { ...t, ...change } : t)),
    });
    const projectId = () => Number(event.streamId.slice('project-'.length));
    switch (event.type) {
      case 'OrganizationUpdated': {
        const change: Record<string, unknown> = { updated_at: d.at };
        if (d.name !== undefined) change.name = d.name;
        if (d.logoMediaId !== undefined) change.logo_media_id = d.logoMediaId;
        if (d.isMemberJoinEmailEnabled !== undefined) change.is_member_join_email_enabled = d.isMemberJoinEmailEnabled;
        if (d.enforce2fa !== undefined) change.enforce_2fa = d.enforce2fa;
        return { ...doc, ...change };
      }
      case 'OrganizationDeleted':
        return null;
      case 'OrganizationMemberJoined':
        return { ...doc, member_count: doc.member_count + 1 };
      case 'OrganizationMemberRemoved':
        return { ...doc, member_count: Math.max(0, doc.member_count - 1) };
      case 'ProjectCreated':
        return { ...doc, teams: [...doc.teams, { id: d.id, uuid: d.uuid, name: d.name, api_token: d.apiToken, organization: d.organizationId }] };
      case 'ProjectUpdated':
        return d.name === undefined ? doc : team(projectId(), { name: d.name });
      case 'ProjectTokenReset':
        return team(projectId(), { api_token: d.apiToken });
      default:
        return doc;
    }
  },
};
