import type { DocumentKey, Projection } from './projection';

export const membershipId = (organizationId: string, userId: number) => `${organizationId}:${userId}`;

const orgIdOf = (streamId: string) => streamId.slice('organization-'.length);
const memberKey = (organizationId: string, userId: number): DocumentKey => ({ collection: 'organization_members', id: membershipId(organizationId, userId) });

/** One document per (organization, user): who belongs where, at which level. */
export const organizationMembersProjection: Projection = {
  name: 'organization_members',
  version: 1,
  categories: ['organization'],
  collections: { organization_members: [['organization_id', 'joined_at'], ['user_id']] },
  lag: 'awaited',
  keys(event) {
    const organizationId = orgIdOf(event.streamId);
    if (event.type === 'OrganizationDeleted') return (event.data.memberUserIds as number[]).map((userId) => memberKey(organizationId, userId));
    return event.data.userId === undefined ? [] : [memberKey(organizationId, event.data.userId)];
  },
  evolve(doc, event, key) {
    const d = event.data;
    switch (event.type) {
      case 'OrganizationMemberJoined':
        return {
          _id: key.id,
          id: d.membershipId,
          organization_id: orgIdOf(event.streamId),
          user_id: d.userId,
          user_uuid: d.userUuid,
          level: d.level,
          joined_at: d.at,
          updated_at: d.at,
        };
      case 'OrganizationMemberLevelChanged':
        return doc && { ...doc, level: d.level, updated_at: d.at };
      case 'OrganizationMemberRemoved':
      case 'OrganizationDeleted':
        return null;
      default:
        return doc;
    }
  },
};
