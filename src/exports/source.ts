import type { EventStore, RecordedEvent } from '../eventstore/port';
import { StreamNotFoundError } from '../eventstore/port';
import { IngestedEventData, ingestionStream } from '../../domain/ingestion/ingested-event';

const PAGE = 5000;

export type EventSelection = {
  projectId: number;
  /** Event timestamps in [startMs, endMs). */
  startMs: number;
  endMs: number;
  includeEvents?: readonly string[] | null;
  excludeEvents?: readonly string[] | null;
  /** The export query's WHERE, when it has one. */
  where?: (d: IngestedEventData) => boolean;
};

export type SourceEvent = { revision: bigint; data: IngestedEventData };

async function readPage(store: EventStore, stream: string, fromRevision: bigint): Promise<RecordedEvent[]> {
  try {
    return await store.readStream(stream, { fromRevision, maxCount: PAGE });
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}

export function eventFilter(selection: Pick<EventSelection, 'includeEvents' | 'excludeEvents'>) {
  const include = selection.includeEvents?.length ? new Set(selection.includeEvents) : null;
  const exclude = new Set(selection.excludeEvents ?? []);
  return (event: string) => (!include || include.has(event)) && !exclude.has(event);
}

/**
 * The project's ingested events of one interval, in stream order, from after `afterRevision` up to and including
 * `upToRevision`. Stream order is fixed once written, so the same bounds always give the same sequence: what
 * lets a resumed run cut the same chunks again.
 */
export async function* intervalEvents(
  store: EventStore,
  selection: EventSelection,
  afterRevision: bigint | null,
  upToRevision: bigint | null,
): AsyncGenerator<SourceEvent> {
  if (upToRevision === null) return;
  const stream = ingestionStream(selection.projectId);
  const wanted = eventFilter(selection);
  const where = selection.where ?? (() => true);
  let next = afterRevision === null ? 0n : afterRevision + 1n;
  while (next <= upToRevision) {
    const page = await readPage(store, stream, next);
    if (page.length === 0) return;
    for (const stored of page) {
      if (stored.revision > upToRevision) return;
      const data = stored.data as IngestedEventData;
      const at = Date.parse(data.timestamp);
      if (at >= selection.startMs && at < selection.endMs && wanted(data.event) && where(data)) yield { revision: stored.revision, data };
    }
    next = page[page.length - 1].revision + 1n;
  }
}

/** The newest ingested event of the project, null when it has none. */
export async function headEvent(store: EventStore, projectId: number): Promise<RecordedEvent | null> {
  try {
    const [last] = await store.readStream(ingestionStream(projectId), { direction: 'backwards', maxCount: 1 });
    return last ?? null;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return null;
    throw error;
  }
}

/** Revision of the newest ingested event of the project, null when it has none. */
export async function headRevision(store: EventStore, projectId: number): Promise<bigint | null> {
  return (await headEvent(store, projectId))?.revision ?? null;
}

/** Timestamp of the earliest matching event (backfills start no earlier), null when there is none. */
export async function earliestEventAt(store: EventStore, selection: Omit<EventSelection, 'startMs' | 'endMs'>): Promise<string | null> {
  let earliest = Number.POSITIVE_INFINITY;
  for await (const e of intervalEvents(store, { ...selection, startMs: Number.NEGATIVE_INFINITY, endMs: Number.POSITIVE_INFINITY }, null, await headRevision(store, selection.projectId))) {
    const at = Date.parse(e.data.timestamp);
    if (at < earliest) earliest = at;
  }
  return Number.isFinite(earliest) ? new Date(earliest).toISOString() : null;
}
