import type { IngestedEventData } from '../domain/ingestion/ingested-event';
import { INGESTED_EVENT_TYPE, INGESTION_CATEGORY } from '../domain/ingestion/ingested-event';
import { nameUuid } from '../domain/ingestion/name-uuid';
import type { Projection } from './projection';

/** Every event name a project has received: first and last seen (by event time) and how many. */
export const eventDefinitionsProjection: Projection = {
  name: 'event-definitions',
  version: 1,
  categories: [INGESTION_CATEGORY],
  collections: { event_definitions: [['project_id', 'name']] },
  lag: 'async',
  keys: (event) =>
    event.type === INGESTED_EVENT_TYPE ? [{ collection: 'event_definitions', id: `${event.data.project_id}:${event.data.event}` }] : [],
  evolve(doc, event, key) {
    const d = event.data as IngestedEventData;
    if (!doc) {
      return {
        _id: key.id,
        id: nameUuid(String(key.id)),
        project_id: d.project_id,
        name: d.event,
        volume: 1,
        first_seen_at: d.timestamp,
        last_seen_at: d.timestamp,
        created_at: d.received_at,
      };
    }
    return {
      ...doc,
      volume: doc.volume + 1,
      first_seen_at: d.timestamp < doc.first_seen_at ? d.timestamp : doc.first_seen_at,
      last_seen_at: d.timestamp > doc.last_seen_at ? d.timestamp : doc.last_seen_at,
    };
  },
};
