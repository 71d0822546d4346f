import type { Upcaster } from '../../domain/upcaster';
import { allUpcasters } from '../../domain/upcasters';
import type { RecordedEvent } from '../eventstore/port';

/**
 * Event schemas evolve per event type. Every stored event carries `metadata.schemaVersion`; an upcaster turns
 * version N of a type into N+1, and readers (command handling, projections, history) apply the chain on read, so
 * events written by older releases fold into today's state and read models rebuild from them.
 */
const upcasters = new Map<string, Upcaster>();

export function registerUpcaster(upcaster: Upcaster) {
  const key = `${upcaster.type}@${upcaster.from}`;
  if (upcasters.has(key)) throw new Error(`two upcasters for ${key}`);
  upcasters.set(key, upcaster);
}

for (const upcaster of allUpcasters) registerUpcaster(upcaster);

/** The version writers stamp on a new event of this type: one past the last upcaster's source version. */
export function currentSchemaVersion(type: string): number {
  let version = 1;
  while (upcasters.has(`${type}@${version}`)) version += 1;
  return version;
}

export function upcast(event: RecordedEvent): RecordedEvent {
  let version = Number(event.metadata?.schemaVersion ?? 1);
  let step = upcasters.get(`${event.type}@${version}`);
  if (!step) return event;
  let data = event.data;
  while (step) {
    data = step.up(data, event.metadata);
    version += 1;
    step = upcasters.get(`${event.type}@${version}`);
  }
  return { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
}
