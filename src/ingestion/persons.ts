import type { Services } from '../container';
import type { Doc } from '../readstore/port';
import { personDocId } from '../../projections/persons';
import { mergeStates, PropertyState, visibleProperties } from '../../domain/ingestion/property-updates';
import { nameUuid } from '../../domain/ingestion/name-uuid';

/**
 * Persons as the persons read model (projections/persons.ts) holds them: one document per distinct id, merged
 * ids pointing at the id they were merged into. The persons API and the persons batch export read them here.
 */

/** Follows merge pointers downwards from a root: every distinct id document of that person. */
export async function personMembers(services: Services, projectId: number, root: Doc): Promise<Doc[]> {
  const members = [root];
  const seen = new Set([root.distinct_id]);
  let frontier = [root.distinct_id as string];
  while (frontier.length) {
    const found = await services.readStore.find('persons', { project_id: projectId, merged_into: { $in: frontier } });
    frontier = [];
    for (const doc of found) {
      if (seen.has(doc.distinct_id)) continue;
      seen.add(doc.distinct_id);
      members.push(doc);
      frontier.push(doc.distinct_id);
    }
  }
  return members;
}

export function serializePerson(projectId: number, root: Doc, members: Doc[]) {
  const uuid = nameUuid(personDocId(projectId, root.distinct_id));
  const ordered = [root, ...members.filter((m) => m !== root).sort((a, b) => (a.created_at < b.created_at ? -1 : 1))];
  const properties = visibleProperties(mergeStates(members.map((m) => m.props as PropertyState)));
  const createdAt = members.reduce((min, m) => (m.created_at < min ? m.created_at : min), root.created_at as string);
  return {
    id: uuid,
    uuid,
    name: (properties.email as string | undefined) ?? (properties.name as string | undefined) ?? root.distinct_id,
    distinct_ids: ordered.map((m) => m.distinct_id),
    properties,
    is_identified: members.some((m) => m.is_identified),
    created_at: createdAt,
  };
}

/** The root of the person a distinct id belongs to (a pointer cycle, which merges cannot normally make, stops). */
export async function rootOf(services: Services, projectId: number, distinctId: string): Promise<Doc | null> {
  let doc = await services.readStore.get('persons', personDocId(projectId, distinctId));
  const seen = new Set<string>();
  while (doc && doc.merged_into !== null && !seen.has(doc.distinct_id)) {
    seen.add(doc.distinct_id);
    const parent = await services.readStore.get('persons', personDocId(projectId, doc.merged_into));
    if (!parent) break;
    doc = parent;
  }
  return doc;
}
