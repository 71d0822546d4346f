/**
 * How an ingested analytics event is kept in the event log. Ingestion writes it; the analytics read models and
 * the batch-export worker read it. Changing it is a schema change (add an upcaster).
 */
export const INGESTION_CATEGORY = 'ingestion';
export const INGESTED_EVENT_TYPE = 'AnalyticsEventIngested';

/** One stream per project; the stored event's id is the analytics event's uuid (so a resend is stored once). */
export const ingestionStream = (projectId: number) => `${INGESTION_CATEGORY}-${projectId}`;

export type IngestedEventData = {
  uuid: string;
  project_id: number;
  event: string;
  distinct_id: string;
  /** distinct_id is also inside properties, as the interface asks. */
  properties: Record<string, unknown>;
  /** ISO 8601 UTC, clock skew already corrected with sent_at. */
  timestamp: string;
  /** When the server accepted it, ISO 8601 UTC. */
  received_at: string;
  historical_migration: boolean;
};
