import type { Projection } from './projection';

/** Personal API keys by id, found at authentication by the hash of the presented key. */
export const personalApiKeysProjection: Projection = {
  name: 'personal_api_keys',
  version: 1,
  categories: ['personal_api_key'],
  collections: { personal_api_keys: [['secure_value'], ['user_id']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'personal_api_keys', id: event.streamId.slice('personal_api_key-'.length) }],
  evolve(doc, event) {
    const d = event.data;
    switch (event.type) {
      case 'PersonalApiKeyCreated':
        return {
          _id: d.id,
          id: d.id,
          user_id: d.userId,
          label: d.label,
          secure_value: d.secureValue,
          mask_value: d.maskValue,
          scopes: d.scopes,
          scoped_organizations: d.scopedOrganizations,
          scoped_teams: d.scopedTeams,
          created_at: d.at,
          last_used_at: null,
        };
      case 'PersonalApiKeyUsed':
        return doc && { ...doc, last_used_at: d.at };
      case 'PersonalApiKeyDeleted':
        return null;
      default:
        return doc;
    }
  },
};
