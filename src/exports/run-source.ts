import { compileExportQuery } from '../../domain/batch-export/hogql';
import type { RunCursor } from '../../domain/batch-export/run';
import type { Services } from '../container';
import { PermanentDestinationError } from './destinations';
import type { BatchExportDoc, BatchExportRunDoc } from './documents';
import { awaitPersonsReadModel, changedPersons, personRecord } from './persons';
import { eventMapping, ExportRecord, PERSONS_SHAPE, RecordShape } from './records';
import { EventSelection, headRevision, intervalEvents } from './source';

/** A record with where it stands in the run's source (the cursor goes on after it) and its identity. */
export type SourceRecord = { position: string; key: string; record: ExportRecord };

export type PreparedSource = {
  total: number;
  /** The run's records in a fixed order, after `position` (null: from the start). */
  records(after: string | null): AsyncGenerator<SourceRecord>;
};

/**
 * What a run reads, by model. `upTo` fixes where the source ends when the run first starts; `prepare` counts and
 * reads the records from there, the same sequence on every attempt, so a resumed run cuts the same chunks.
 */
export type RunSource = {
  shape: RecordShape;
  upTo(): Promise<string | null>;
  prepare(cursor: RunCursor): Promise<PreparedSource>;
};

export type RunSourceOptions = { personsWaitMs: number };

const str = (v: bigint | null) => (v === null ? null : v.toString());
const big = (v: string | null) => (v === null ? null : BigInt(v));

/** A query stored before its construct was refused at create fails its runs plainly: retrying will not help. */
function compiled(query: string) {
  try {
    return compileExportQuery(query);
  } catch (error) {
    throw new PermanentDestinationError(`The export's hogql_query cannot be evaluated: ${(error as Error).message}`);
  }
}

/** Events: the interval's ingested events in stream order; the position is the stream revision. */
function eventsSource(services: Services, doc: BatchExportDoc, run: BatchExportRunDoc): RunSource {
  const mapping = eventMapping(doc.hogql_query ? compiled(doc.hogql_query) : null);
  const selection: EventSelection = {
    projectId: doc.team_id,
    startMs: Date.parse(run.data_interval_start),
    endMs: Date.parse(run.data_interval_end),
    includeEvents: doc.destination.config.include_events as string[] | null,
    excludeEvents: doc.destination.config.exclude_events as string[] | null,
    where: mapping.where,
  };
  return {
    shape: mapping.shape,
    upTo: async () => str(await headRevision(services.eventStore, doc.team_id)),
    async prepare(cursor) {
      const upTo = big(cursor.upToRevision);
      let total = 0;
      for await (const _ of intervalEvents(services.eventStore, selection, null, upTo)) total++;
      return {
        total,
        async *records(after) {
          for await (const e of intervalEvents(services.eventStore, selection, big(after), upTo)) {
            yield { position: e.revision.toString(), key: e.data.uuid, record: mapping.record(e.data) };
          }
        },
      };
    },
  };
}

/**
 * Persons: those whose documents changed in the interval, in person id order; the position is the person id. A
 * person that changes again before a resumed run reaches it is delivered by the run of that later change.
 */
function personsSource(services: Services, doc: BatchExportDoc, run: BatchExportRunDoc, options: RunSourceOptions): RunSource {
  return {
    shape: PERSONS_SHAPE,
    upTo: async () => str(await headRevision(services.eventStore, doc.team_id)),
    async prepare() {
      await awaitPersonsReadModel(services, doc.team_id, options.personsWaitMs);
      const persons = await changedPersons(services, doc.team_id, run.data_interval_start, run.data_interval_end);
      return {
        total: persons.length,
        async *records(after) {
          for (const p of persons) {
            if (after !== null && p.personId <= after) continue;
            yield { position: p.personId, key: p.personId, record: await personRecord(services, doc.team_id, p.root) };
          }
        },
      };
    },
  };
}

export function runSource(services: Services, doc: BatchExportDoc, run: BatchExportRunDoc, options: RunSourceOptions): RunSource {
  return doc.model === 'persons' ? personsSource(services, doc, run, options) : eventsSource(services, doc, run);
}
