import type { Projection } from './projection';

/** Live browser sessions, found by the hash of the cookie; an ended session's document is deleted. */
export const loginSessionsProjection: Projection = {
  name: 'login_sessions',
  version: 1,
  categories: ['login_session'],
  collections: { login_sessions: [['token_hash'], ['user_id']] },
  lag: 'awaited',
  keys: (event) => [{ collection: 'login_sessions', id: event.streamId.slice('login_session-'.length) }],
  evolve(doc, event) {
    const d = event.data;
    switch (event.type) {
      case 'SessionStarted':
        return { _id: d.id, id: d.id, user_id: d.userId, token_hash: d.tokenHash, expires_at: d.expiresAt, created_at: d.at };
      case 'SessionEnded':
        return null;
      default:
        return doc;
    }
  },
};
