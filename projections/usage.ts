import type { IngestedEventData } from '../domain/ingestion/ingested-event';
import { INGESTED_EVENT_TYPE, INGESTION_CATEGORY } from '../domain/ingestion/ingested-event';
import type { Projection } from './projection';

/**
 * Events per project and UTC day of receipt (billing counts what arrived that day, whatever time the events
 * claim): historical-migration events apart from billable ones.
 */
export const usageDay = (d: IngestedEventData) => d.received_at.slice(0, 10);

export const usageProjection: Projection = {
  name: 'usage',
  version: 1,
  categories: [INGESTION_CATEGORY],
  collections: { ingestion_usage: [['project_id', 'date']] },
  lag: 'async',
  keys: (event) =>
    event.type === INGESTED_EVENT_TYPE ? [{ collection: 'ingestion_usage', id: `${event.data.project_id}:${usageDay(event.data)}` }] : [],
  evolve(doc, event, key) {
    const d = event.data as IngestedEventData;
    const current = doc ?? { _id: key.id, project_id: d.project_id, date: usageDay(d), billable_events: 0, historical_events: 0 };
    return d.historical_migration
      ? { ...current, historical_events: current.historical_events + 1 }
      : { ...current, billable_events: current.billable_events + 1 };
  },
};
