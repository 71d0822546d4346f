import type { Projection } from './projection';

export const membershipId = (organizationId: string, userId: number) => `${organizationId}:${userId}`;

/** One document per (organization, user): who belongs where, at which level. */
export const organizationMembersProjection: Projection = {
  name: 'organization_members',
  version: 1,
  categories: ['organization'],
  collections: { organization_members: [['organization_id', 'joined_at'], ['user_id']] },
  lag: 'awaited',
  keys: (event) =>
    event.data.userId === undefined
      ? []
      : [{ collection: 'organization_members', id: membershipId(event.streamId.slice('organization-'.length), event.data.userId) }],
  evolve(doc, event, key) {
    const d = event.data;
    switch (event.type) {
      case 'OrganizationMemberJoined':
        return {
          _id: key.id,
          id: d.membershipId,
          organization_id: event.streamId.slice('organization-'.length),
          user_id: d.userId,
          user_uuid: d.userUuid,
          level: d.level,
          joined_at: d.at,
          updated_at: d.at,
        };
      default:
        return doc;
    }
  },
};
