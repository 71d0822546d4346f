import type { EventStore } from '../eventstore/port';

/**
 * Integer ids (dashboards, projects, plugins, users, tiles) come from one counter stream per kind: an append
 * without a revision check never conflicts, and the revision it lands at is unique, so concurrent creates
 * never share an id and never retry.
 */
export async function allocateId(store: EventStore, kind: string): Promise<number> {
  const result = await store.appendToStream(`ids-${kind}`, [{ type: 'IdAllocated', data: {} }], { expectedRevision: 'any' });
  return Number(result.nextExpectedRevision) + 1;
}
