import type { IngestedEventData } from '../domain/ingestion/ingested-event';
import { INGESTED_EVENT_TYPE, INGESTION_CATEGORY } from '../domain/ingestion/ingested-event';
import type { Projection } from './projection';

export const eventDocId = (projectId: number, uuid: string) => `${projectId}:${uuid}`;

/** Ingested events as the events endpoint lists them, per project, newest first. */
export const eventsProjection: Projection = {
  name: 'events',
  version: 1,
  categories: [INGESTION_CATEGORY],
  collections: { events: [['project_id', 'timestamp'], ['project_id', 'event', 'timestamp'], ['project_id', 'distinct_id', 'timestamp']] },
  lag: 'async',
  keys: (event) => (event.type === INGESTED_EVENT_TYPE ? [{ collection: 'events', id: eventDocId(event.data.project_id, event.data.uuid) }] : []),
  evolve(doc, event) {
    // A uuid is one event: should the log ever hold it twice, the first stored stays.
    if (doc) return doc;
    const d = event.data as IngestedEventData;
    return {
      _id: eventDocId(d.project_id, d.uuid),
      project_id: d.project_id,
      uuid: d.uuid,
      event: d.event,
      distinct_id: d.distinct_id,
      properties: d.properties,
      timestamp: d.timestamp,
      historical_migration: d.historical_migration,
    };
  },
};
