import type { RecordedEvent } from '../eventstore/port';

/** Stamped on every event written; readers turn older versions into the current shape before folding. */
export const CURRENT_SCHEMA_VERSION = 1;

type Upcaster = (event: RecordedEvent) => RecordedEvent;

/** Keyed by `<event type>@<version it upgrades from>`; each step raises the version by one. */
const upcasters = new Map<string, Upcaster>();

export function upcast(event: RecordedEvent): RecordedEvent {
  let current = event;
  let version = Number(current.metadata?.schemaVersion ?? 1);
  while (version < CURRENT_SCHEMA_VERSION) {
    const step = upcasters.get(`${current.type}@${version}`);
    version += 1;
    if (step) current = step(current);
    current = { ...current, metadata: { ...current.metadata, schemaVersion: version } };
  }
  return current;
}
