import { DomainError, invalid, notFound } from '../errors';
import type { BatchExportCommand } from './commands';
import type { BatchExportEvent } from './events';
import { INTERVAL_MS } from './intervals';
import type { BatchExportState } from './state';

const notFoundExport = () => notFound();

/** A query reads `events`: what it selects means nothing to the persons model, so the pair is refused, not ignored. */
function checkQueryFitsModel(model: string, hogqlQuery: string | null) {
  if (hogqlQuery && model !== 'events') throw invalid(`A hogql_query can only be used with the events model, not ${model}.`, 'hogql_query');
}

/** HTTP and NoOp accept open-ended backfills (they catch up, then the schedule carries on), as in the reference. */
const OPEN_ENDED_BACKFILL_TYPES = new Set(['HTTP', 'NoOp']);

export function decide(command: BatchExportCommand, state: BatchExportState): BatchExportEvent[] {
  const at = command.metadata.now;
  if (command.type === 'CreateBatchExport') {
    if (state.status !== 'none') throw new DomainError('conflict', 'already_exists', 'This batch export already exists.');
    const d = command.data;
    if (d.start_at && d.end_at && Date.parse(d.start_at) >= Date.parse(d.end_at)) {
      throw invalid("The 'start_at' of a batch export must be before its 'end_at'.", 'start_at');
    }
    checkQueryFitsModel(d.model, d.hogql_query);
    return [{ type: 'BatchExportCreated', data: { ...d, createdBy: command.metadata.userId ?? null, at } }];
  }
  if (state.status !== 'active') throw notFoundExport();
  const id = state.id;
  switch (command.type) {
    case 'UpdateBatchExport': {
      const { paused, ...changes } = command.data.changes;
      const startAt = changes.start_at !== undefined ? changes.start_at : state.start_at;
      const endAt = changes.end_at !== undefined ? changes.end_at : state.end_at;
      if (startAt && endAt && Date.parse(startAt) >= Date.parse(endAt)) {
        throw invalid("The 'start_at' of a batch export must be before its 'end_at'.", 'start_at');
      }
      checkQueryFitsModel(changes.model ?? state.model, changes.hogql_query !== undefined ? changes.hogql_query : state.hogql_query);
      const events: BatchExportEvent[] = [];
      if (Object.keys(changes).length > 0) events.push({ type: 'BatchExportUpdated', data: { id, changes, at } });
      if (paused === true && !state.paused) events.push({ type: 'BatchExportPaused', data: { id, at } });
      if (paused === false && state.paused) events.push({ type: 'BatchExportUnpaused', data: { id, at } });
      // A PATCH that changes nothing still moves last_updated_at, as every accepted write does.
      if (events.length === 0) events.push({ type: 'BatchExportUpdated', data: { id, changes: {}, at } });
      return events;
    }
    case 'PauseBatchExport':
      return state.paused ? [] : [{ type: 'BatchExportPaused', data: { id, at } }];
    case 'UnpauseBatchExport': {
      if (!state.paused) return [];
      const events: BatchExportEvent[] = [{ type: 'BatchExportUnpaused', data: { id, at } }];
      if (command.data.backfill && state.lastPausedAt && Date.parse(state.lastPausedAt) < Date.parse(at)) {
        events.push({ type: 'BatchExportBackfillRequested', data: { id, backfillId: command.data.backfillId, startAt: state.lastPausedAt, endAt: at, at } });
      }
      return events;
    }
    case 'BackfillBatchExport': {
      const { backfillId, hasData, earliestEventAt } = command.data;
      let { startAt, endAt } = command.data;
      if (!hasData) throw invalid('There is no data to backfill for this model.');
      if (endAt && earliestEventAt && Date.parse(endAt) < Date.parse(earliestEventAt)) {
        throw invalid(
          `The provided backfill date range contains no data. The earliest possible backfill start date is ${earliestEventAt.replace('T', ' ').slice(0, 19)}`,
        );
      }
      // Backfills start no earlier than the first event: walking empty intervals back to 2000 helps nobody.
      if (startAt && earliestEventAt && Date.parse(startAt) < Date.parse(earliestEventAt)) startAt = earliestEventAt;
      if (!startAt) startAt = earliestEventAt ?? at;
      if (endAt) {
        if (Date.parse(startAt) >= Date.parse(endAt)) throw invalid("The initial backfill datetime 'start_at' happens after 'end_at'");
        if (Date.parse(endAt) > Date.parse(at) + INTERVAL_MS[state.interval]) {
          throw invalid(
            `The provided 'end_at' (${endAt}) is too far into the future. Cannot backfill beyond 1 batch period into the future.`,
          );
        }
      } else if (!OPEN_ENDED_BACKFILL_TYPES.has(state.destination.type)) {
        throw invalid('Backfilling a BatchExport with no end date is not allowed');
      } else {
        endAt = null;
      }
      return [{ type: 'BatchExportBackfillRequested', data: { id, backfillId, startAt, endAt, at } }];
    }
    case 'DeleteBatchExport':
      return [{ type: 'BatchExportDeleted', data: { id, at } }];
  }
}
