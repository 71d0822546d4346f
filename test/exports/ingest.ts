import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/container';
import { INGESTED_EVENT_TYPE, IngestedEventData, ingestionStream } from '../../domain/ingestion/ingested-event';

/** Stores analytics events the way ingestion does (domain/ingestion/ingested-event.ts), so exports read what /batch/ would write. */
export async function ingest(services: Services, projectId: number, events: { event?: string; timestamp: string; distinct_id?: string; properties?: Record<string, unknown> }[]) {
  const stored: IngestedEventData[] = events.map((e, i) => {
    const distinctId = e.distinct_id ?? `user-${i % 7}`;
    return {
      uuid: randomUUID(),
      project_id: projectId,
      event: e.event ?? '$pageview',
      distinct_id: distinctId,
      properties: { distinct_id: distinctId, n: i, ...e.properties },
      timestamp: e.timestamp,
      received_at: new Date().toISOString(),
      historical_migration: true,
    };
  });
  for (let i = 0; i < stored.length; i += 500) {
    await services.eventStore.appendToStream(
      ingestionStream(projectId),
      stored.slice(i, i + 500).map((data) => ({ id: data.uuid, type: INGESTED_EVENT_TYPE, data })),
    );
  }
  return stored;
}

/** `count` events spread evenly over [startIso, startIso + spanMs). */
export function spread(count: number, startIso: string, spanMs: number, event = '$pageview') {
  const start = Date.parse(startIso);
  return Array.from({ length: count }, (_, i) => ({ event, timestamp: new Date(start + Math.floor((i * spanMs) / count)).toISOString() }));
}
