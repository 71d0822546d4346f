import { documentKey, DocumentKey, Projection, POSITION_FIELD } from '../../projections/projection';
import { loadStream } from '../commands/command-handler';
import type { EventStore, RecordedEvent } from '../eventstore/port';
import type { Doc } from '../readstore/port';

export type Change = { field: string; before: unknown; after: unknown };

/** One event's effect on one document: the document before and after it, and what visibly changed. */
export type TimelineEntry = { event: RecordedEvent; before: Doc | null; after: Doc | null; changes: Change[] };

/**
 * The history of one read-model document, folded from its stream with the same pure projection that builds the
 * live document: so "as it was then" and "what changed" can never disagree with what the API showed at the time.
 */
export async function documentTimeline(
  eventStore: EventStore,
  projection: Projection,
  stream: string,
  key: DocumentKey,
  hidden: readonly string[] = [],
): Promise<TimelineEntry[]> {
  const events = await loadStream(eventStore, stream);
  const wanted = documentKey(key);
  const entries: TimelineEntry[] = [];
  let current: Doc | null = null;
  for (const event of events) {
    if (!projection.keys(event).some((k) => documentKey(k) === wanted)) continue;
    const next: Doc | null = projection.evolve(current, event, key);
    if (next === current) continue;
    const after: Doc | null = next && { ...next, _id: key.id };
    entries.push({ event, before: current, after, changes: diffDocuments(redact(current, hidden), redact(after, hidden)) });
    current = after;
  }
  return entries;
}

/** The document as of a moment or a stream revision (null: it did not exist yet, or no longer did). */
export function documentAsOf(timeline: TimelineEntry[], at: { asOf?: Date; revision?: bigint }): Doc | null {
  let doc: Doc | null = null;
  for (const entry of timeline) {
    if (at.revision !== undefined && entry.event.revision > at.revision) break;
    if (at.asOf && eventTime(entry.event) > at.asOf.getTime()) break;
    doc = entry.after;
  }
  return doc;
}

/** When the change happened: the command's clock (metadata.now), else when the store recorded it. */
export function eventTime(event: RecordedEvent): number {
  const now = event.metadata?.now;
  const t = typeof now === 'string' ? Date.parse(now) : NaN;
  return Number.isNaN(t) ? event.created.getTime() : t;
}

/** Bookkeeping every change moves: not a change of its own in an audit log. */
const INTERNAL = new Set(['_id', POSITION_FIELD, 'updated_at', 'last_modified_at', 'last_updated_at']);

/** A copy without the hidden (possibly dotted) paths: secrets never reach a change list. */
export function redact(doc: Doc | null, hidden: readonly string[]): Doc | null {
  if (!doc || hidden.length === 0) return doc;
  const copy = structuredClone(doc);
  for (const path of hidden) {
    const parts = path.split('.');
    let node: any = copy;
    for (const part of parts.slice(0, -1)) node = node?.[part];
    if (node && typeof node === 'object') delete node[parts[parts.length - 1]];
  }
  return copy;
}

export function diffDocuments(before: Doc | null, after: Doc | null): Change[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Change[] = [];
  for (const field of fields) {
    if (INTERNAL.has(field) || field.startsWith('_')) continue;
    const a = before?.[field];
    const b = after?.[field];
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ field, before: a ?? null, after: b ?? null });
  }
  return changes;
}
