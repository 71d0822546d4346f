import type { Services } from '../container';
import { personMembers, rootOf, serializePerson } from '../ingestion/persons';
import { nameUuid } from '../../domain/ingestion/name-uuid';
import { checkpointName } from '../projections/runner';
import type { Doc } from '../readstore/port';
import { personDocId, personsProjection } from '../../projections/persons';
import type { ExportRecord } from './records';
import { headEvent } from './source';

/** The persons read model follows the log asynchronously; this says when it has not caught up in time. */
export class PersonsNotReadyError extends Error {}

const POLL_MS = 100;

/**
 * Waits (bounded) until the persons read model has processed the project's log up to its newest event, which a run
 * starts only after its interval ended, so every change received in the interval is in the documents it reads.
 */
export async function awaitPersonsReadModel(services: Services, projectId: number, timeoutMs: number) {
  const head = await headEvent(services.eventStore, projectId);
  if (!head) return;
  const name = checkpointName(personsProjection);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const position = await services.readStore.getCheckpoint(name);
    if (position !== null && position >= head.position) return;
    if (Date.now() >= deadline) {
      throw new PersonsNotReadyError(
        `The persons read model has not yet processed the events up to the end of this interval (at ${String(position ?? 0n)} of ${String(head.position)}); the run will be retried.`,
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export type ChangedPerson = { personId: string; root: Doc };

/**
 * The persons of a project whose documents changed in [start, end) (server time of the events that changed them),
 * one entry per person (merged ids lead to their root), ordered by person id: the order a run delivers them in,
 * so a resumed run goes on after the last person id it confirmed.
 */
export async function changedPersons(services: Services, projectId: number, start: string, end: string): Promise<ChangedPerson[]> {
  const docs = await services.readStore.find('persons', { project_id: projectId, updated_at: { $gte: start, $lt: end } });
  const roots = new Map<string, ChangedPerson>();
  for (const doc of docs) {
    const root = doc.merged_into === null ? doc : await rootOf(services, projectId, doc.distinct_id);
    if (!root) continue;
    const personId = nameUuid(personDocId(projectId, root.distinct_id));
    if (!roots.has(personId)) roots.set(personId, { personId, root });
  }
  return [...roots.values()].sort((a, b) => (a.personId < b.personId ? -1 : a.personId > b.personId ? 1 : 0));
}

/** One person as the persons model delivers it: its current state, all its distinct ids folded together. */
export async function personRecord(services: Services, projectId: number, root: Doc): Promise<ExportRecord> {
  const members = await personMembers(services, projectId, root);
  const person = serializePerson(projectId, root, members);
  const updatedAt = members.reduce((max, m) => {
    const at = (m.updated_at ?? m.created_at) as string;
    return at > max ? at : max;
  }, '');
  return {
    team_id: projectId,
    distinct_id: root.distinct_id,
    person_id: person.uuid,
    properties: person.properties,
    created_at: person.created_at,
    updated_at: updatedAt,
    distinct_ids: person.distinct_ids,
  };
}
