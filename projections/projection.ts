import type { Doc, DocumentId } from '../src/readstore/port';

/** What a projection sees of a stored event: enough to fold it, and its global position for the replay guard. */
export type ProjectedEvent = {
  type: string;
  data: any;
  metadata: Record<string, any>;
  streamId: string;
  revision: bigint;
  position: bigint;
};

export type DocumentKey = { collection: string; id: DocumentId };

/**
 * A read model: which streams it follows, which documents each event touches, and how a document evolves.
 * Pure: the runner loads the documents, guards replays and writes the results.
 */
export interface Projection {
  name: string;
  /** Bumped when the document shape changes: a new version is rebuilt from position zero beside the old one. */
  version: number;
  /** Stream categories (the part of a stream name before '-') whose events it reads. */
  categories: readonly string[];
  /** Collections it owns, with their indexes. */
  collections: Record<string, string[][]>;
  /** Management read models are awaited by writes (read your writes); ingestion ones follow asynchronously. */
  lag: 'awaited' | 'async';
  keys(event: ProjectedEvent): DocumentKey[];
  /** Returns the next document, or null to delete it. */
  evolve(doc: Doc | null, event: ProjectedEvent, key: DocumentKey): Doc | null;
}

export const POSITION_FIELD = '_position';

/** One checkpoint per projection and version: a new version starts from position zero beside the old one. */
export const checkpointName = (p: Pick<Projection, 'name' | 'version'>) => `${p.name}:v${p.version}`;

/**
 * Applies one event to the documents it touches, in place in `docs` (keyed by documentKey). A document that
 * already saw this position is left alone, so replaying an event, or a whole stretch of the log, changes nothing.
 * Returns the keys it changed.
 */
export function applyEvent(projection: Projection, event: ProjectedEvent, docs: Map<string, Doc | null>): string[] {
  const changed: string[] = [];
  const position = Number(event.position);
  for (const key of projection.keys(event)) {
    const k = documentKey(key);
    const current = docs.get(k) ?? null;
    if (current && (current[POSITION_FIELD] ?? 0) >= position) continue;
    const next = projection.evolve(current, event, key);
    if (next === current) continue;
    docs.set(k, next === null ? null : { ...next, _id: key.id, [POSITION_FIELD]: position });
    changed.push(k);
  }
  return changed;
}

export const documentKey = (key: DocumentKey) => `${key.collection}\u0000${typeof key.id}:${String(key.id)}`;
