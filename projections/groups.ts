import type { IngestedEventData } from '../domain/ingestion/ingested-event';
import { INGESTED_EVENT_TYPE, INGESTION_CATEGORY } from '../domain/ingestion/ingested-event';
import { applyUpdates, emptyPropertyState, PropertyState } from '../domain/ingestion/property-updates';
import type { Projection } from './projection';

/** `$groupidentify` is what the official clients send; the interface calls it `$group_identify`. */
export const GROUP_IDENTIFY_EVENTS = ['$groupidentify', '$group_identify'];

function groupOf(d: IngestedEventData): { type: string; key: string } | null {
  if (!GROUP_IDENTIFY_EVENTS.includes(d.event)) return null;
  const type = d.properties.$group_type;
  const key = d.properties.$group_key;
  if (typeof type !== 'string' || type === '' || (typeof key !== 'string' && typeof key !== 'number') || key === '') return null;
  return { type, key: String(key) };
}

export const groupDocId = (projectId: number, type: string, key: string) => `${projectId}:${type}:${key}`;

/** Groups and their properties, `$group_set` last-writer-wins by event time (see property-updates). */
export const groupsProjection: Projection = {
  name: 'groups',
  version: 1,
  categories: [INGESTION_CATEGORY],
  collections: { groups: [['project_id', 'group_type', 'created_at']] },
  lag: 'async',
  keys(event) {
    if (event.type !== INGESTED_EVENT_TYPE) return [];
    const group = groupOf(event.data);
    return group ? [{ collection: 'groups', id: groupDocId(event.data.project_id, group.type, group.key) }] : [];
  },
  evolve(doc, event, key) {
    const d = event.data as IngestedEventData;
    const group = groupOf(d)!;
    const current = doc ?? {
      _id: key.id,
      project_id: d.project_id,
      group_type: group.type,
      group_key: group.key,
      created_at: d.timestamp,
      props: emptyPropertyState(),
    };
    const props = applyUpdates(current.props as PropertyState, d.properties.$group_set, d.properties.$group_set_once, d.timestamp);
    const earlier = d.timestamp < current.created_at;
    if (doc && !props && !earlier) return doc;
    return { ...current, props: props ?? current.props, created_at: earlier ? d.timestamp : current.created_at };
  },
};
