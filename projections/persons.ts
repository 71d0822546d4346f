import type { IngestedEventData } from '../domain/ingestion/ingested-event';
import { INGESTED_EVENT_TYPE, INGESTION_CATEGORY } from '../domain/ingestion/ingested-event';
import { applyUpdates, emptyPropertyState, PropertyState } from '../domain/ingestion/property-updates';
import type { Doc } from '../src/readstore/port';
import type { DocumentKey, Projection } from './projection';

export const personDocId = (projectId: number, distinctId: string) => `${projectId}:${distinctId}`;

/** The other distinct id an event merges into its own: `$identify` with `$anon_distinct_id`, or `$create_alias`. */
export function mergedIdOf(d: IngestedEventData): string | null {
  const other = d.event === '$identify' ? d.properties.$anon_distinct_id : d.event === '$create_alias' ? d.properties.alias : undefined;
  if (typeof other !== 'string' && typeof other !== 'number') return null;
  const id = String(other);
  return id === '' || id === d.distinct_id ? null : id;
}

/**
 * When the document last changed: the server time of the latest event that changed it (what a persons batch export
 * selects by). Events are not received in log order exactly, hence the max.
 */
const updatedAt = (current: Doc, d: IngestedEventData): string =>
  current.updated_at && current.updated_at > d.received_at ? current.updated_at : d.received_at;

/**
 * Persons, kept as one document per distinct id, because a projection sees one document at a time and a merge
 * would otherwise need a lookup (which person does this id belong to?) that keys() cannot make.
 *
 * - Each document holds what events sent with that distinct id said ($set / $set_once with per-property event
 *   times, first seen, identified).
 * - A merge touches both documents and leaves a pointer on the merged one (`merged_into`); the first merge of an
 *   id wins, and an identified id is never merged away (the reference refuses that too).
 * - A person is a root document (merged_into null) with every document whose pointers lead to it. The query
 *   side follows the pointers and folds the property states; the fold is order-free (see property-updates), so
 *   the result is what applying every event in timestamp order to one person would give.
 */
export const personsProjection: Projection = {
  name: 'persons',
  version: 2,
  categories: [INGESTION_CATEGORY],
  collections: { persons: [['project_id', 'merged_into', 'created_at'], ['project_id', 'distinct_id'], ['project_id', 'updated_at']] },
  lag: 'async',
  keys(event) {
    if (event.type !== INGESTED_EVENT_TYPE) return [];
    const d = event.data as IngestedEventData;
    const keys: DocumentKey[] = [{ collection: 'persons', id: personDocId(d.project_id, d.distinct_id) }];
    const other = mergedIdOf(d);
    if (other) keys.push({ collection: 'persons', id: personDocId(d.project_id, other) });
    return keys;
  },
  evolve(doc, event, key) {
    const d = event.data as IngestedEventData;
    const own = key.id === personDocId(d.project_id, d.distinct_id);
    const distinctId = own ? d.distinct_id : mergedIdOf(d)!;
    const current = doc ?? {
      _id: key.id,
      project_id: d.project_id,
      distinct_id: distinctId,
      merged_into: null,
      is_identified: false,
      created_at: d.timestamp,
      props: emptyPropertyState(),
    };
    const earlier = d.timestamp < current.created_at;
    if (!own) {
      const merge = current.merged_into === null && !current.is_identified;
      if (doc && !merge && !earlier) return doc;
      return {
        ...current,
        merged_into: merge ? d.distinct_id : current.merged_into,
        created_at: earlier ? d.timestamp : current.created_at,
        updated_at: updatedAt(current, d),
      };
    }
    const props = applyUpdates(current.props as PropertyState, d.properties.$set, d.properties.$set_once, d.timestamp);
    const identifies = d.event === '$identify' && !current.is_identified;
    if (doc && !props && !earlier && !identifies) return doc;
    return {
      ...current,
      props: props ?? current.props,
      created_at: earlier ? d.timestamp : current.created_at,
      is_identified: current.is_identified || d.event === '$identify',
      updated_at: updatedAt(current, d),
    };
  },
};
