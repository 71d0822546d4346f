import type { Projection } from './projection';

/** One document per user: the profile, the password hash for login, and the current organization and project. */
export const usersProjection: Projection = {
  name: 'users',
  version: 1,
  categories: ['user'],
  collections: { users: [['uuid'], ['email']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'users', id: Number(event.streamId.slice('user-'.length)) }],
  evolve(doc, event) {
    const d = event.data;
    switch (event.type) {
      case 'UserSignedUp':
        return {
          _id: d.id,
          id: d.id,
          uuid: d.uuid,
          email: d.email,
          first_name: d.firstName,
          last_name: d.lastName,
          distinct_id: d.distinctId,
          is_email_verified: false,
          password_hash: d.passwordHash,
          current_organization_id: null,
          current_team_id: null,
          date_joined: d.at,
          is_active: true,
        };
      case 'UserSwitchedOrganization':
        return doc && { ...doc, current_organization_id: d.organizationId, current_team_id: d.teamId };
      case 'UserSignUpCancelled':
        return null;
      default:
        return doc;
    }
  },
};
