import { batchExportDecider } from '../../domain/batch-export';
import type { BatchExportEvent } from '../../domain/batch-export';
import { compileExportQuery, parseExportQuery } from '../../domain/batch-export/hogql';
import { intervalsBetween, runIdFor } from '../../domain/batch-export/intervals';
import { DeciderSpecification, meta } from '../support/decider-spec';

const spec = DeciderSpecification(batchExportDecider);
const id = '11111111-1111-4111-8111-111111111111';
const settings = {
  name: 'Export',
  model: 'events' as const,
  destination: { type: 'NoOp' as const, config: {} },
  interval: 'hour' as const,
  start_at: null,
  end_at: null,
  hogql_query: null,
  schema: null,
};
const created: BatchExportEvent = {
  type: 'BatchExportCreated',
  data: { ...settings, id, organizationId: 'org', teamId: 1, paused: false, createdBy: 1, at: '2026-01-01T00:00:00.000Z' },
};
const paused: BatchExportEvent = { type: 'BatchExportPaused', data: { id, at: '2026-01-01T01:00:00.000Z' } };
const now = '2026-01-01T05:00:00.000Z';

describe('batch export decider', () => {
  it('creates an export once', () => {
    spec.given([]).when({ type: 'CreateBatchExport', data: { ...settings, id, organizationId: 'org', teamId: 1, paused: false }, metadata: meta('2026-01-01T00:00:00.000Z') }).then([created]);
    spec.given([created]).when({ type: 'CreateBatchExport', data: { ...settings, id, organizationId: 'org', teamId: 1, paused: false }, metadata: meta() }).thenThrows({ kind: 'conflict' });
  });

  it('refuses a start_at that is not before end_at', () => {
    spec
      .given([created])
      .when({ type: 'UpdateBatchExport', data: { changes: { start_at: '2026-02-01T00:00:00.000Z', end_at: '2026-01-01T00:00:00.000Z' } }, metadata: meta(now) })
      .thenThrows({ kind: 'validation', attr: 'start_at' });
  });

  it('pauses once; unpausing with backfill requests the paused gap', () => {
    spec.given([created]).when({ type: 'PauseBatchExport', data: {}, metadata: meta('2026-01-01T01:00:00.000Z') }).then([paused]);
    spec.given([created, paused]).when({ type: 'PauseBatchExport', data: {}, metadata: meta(now) }).thenNothingHappened();
    spec
      .given([created, paused])
      .when({ type: 'UnpauseBatchExport', data: { backfill: true, backfillId: 'b1' }, metadata: meta(now) })
      .then([
        { type: 'BatchExportUnpaused', data: { id, at: now } },
        { type: 'BatchExportBackfillRequested', data: { id, backfillId: 'b1', startAt: '2026-01-01T01:00:00.000Z', endAt: now, at: now } },
      ]);
    spec.given([created]).when({ type: 'UnpauseBatchExport', data: { backfill: true, backfillId: 'b1' }, metadata: meta(now) }).thenNothingHappened();
  });

  it('PATCH paused is a pause', () => {
    spec
      .given([created])
      .when({ type: 'UpdateBatchExport', data: { changes: { paused: true, name: 'x' } }, metadata: meta(now) })
      .then([
        { type: 'BatchExportUpdated', data: { id, changes: { name: 'x' }, at: now } },
        { type: 'BatchExportPaused', data: { id, at: now } },
      ]);
  });

  it('validates backfills as the reference does', () => {
    const backfill = (data: Partial<{ startAt: string | null; endAt: string | null; hasData: boolean; earliestEventAt: string | null }>) => ({
      type: 'BackfillBatchExport' as const,
      data: { backfillId: 'b', startAt: '2026-01-01T00:00:00.000Z', endAt: '2026-01-01T03:00:00.000Z', hasData: true, earliestEventAt: '2025-12-01T00:00:00.000Z', ...data },
      metadata: meta(now),
    });
    spec.given([created]).when(backfill({ hasData: false })).thenThrows({ detail: 'There is no data to backfill for this model.' });
    spec.given([created]).when(backfill({ startAt: '2026-01-01T04:00:00.000Z' })).thenThrows({ detail: "The initial backfill datetime 'start_at' happens after 'end_at'" });
    const toS3: BatchExportEvent = { type: 'BatchExportUpdated', data: { id, changes: { destination: { type: 'S3', config: {} } }, at: now } };
    spec.given([created, toS3]).when(backfill({ endAt: null })).thenThrows({ detail: 'Backfilling a BatchExport with no end date is not allowed' });
    // NoOp (and HTTP) may leave the end open.
    spec.given([created]).when(backfill({ endAt: null })).then([{ type: 'BatchExportBackfillRequested', data: { id, backfillId: 'b', startAt: '2026-01-01T00:00:00.000Z', endAt: null, at: now } }]);
    spec
      .given([created])
      .when(backfill({ endAt: '2026-01-01T06:00:00.001Z' }))
      .thenThrows({ detail: "The provided 'end_at' (2026-01-01T06:00:00.001Z) is too far into the future. Cannot backfill beyond 1 batch period into the future." });
    // Moved up to the first event.
    spec
      .given([created])
      .when(backfill({ startAt: '2020-01-01T00:00:00.000Z' }))
      .then([{ type: 'BatchExportBackfillRequested', data: { id, backfillId: 'b', startAt: '2025-12-01T00:00:00.000Z', endAt: '2026-01-01T03:00:00.000Z', at: now } }]);
  });

  it('refuses a query on the persons model, at create and when a PATCH would make that pair', () => {
    const query = 'SELECT event FROM events';
    spec
      .given([])
      .when({ type: 'CreateBatchExport', data: { ...settings, model: 'persons', hogql_query: query, id, organizationId: 'org', teamId: 1, paused: false }, metadata: meta(now) })
      .thenThrows({ kind: 'validation', detail: 'A hogql_query can only be used with the events model, not persons.' });
    spec.given([created]).when({ type: 'UpdateBatchExport', data: { changes: { hogql_query: query } }, metadata: meta(now) }).then([{ type: 'BatchExportUpdated', data: { id, changes: { hogql_query: query }, at: now } }]);
    const withQuery: BatchExportEvent = { type: 'BatchExportUpdated', data: { id, changes: { hogql_query: query }, at: now } };
    spec.given([created, withQuery]).when({ type: 'UpdateBatchExport', data: { changes: { model: 'persons' } }, metadata: meta(now) }).thenThrows({ kind: 'validation' });
    spec
      .given([created, withQuery])
      .when({ type: 'UpdateBatchExport', data: { changes: { model: 'persons', hogql_query: null } }, metadata: meta(now) })
      .then([{ type: 'BatchExportUpdated', data: { id, changes: { model: 'persons', hogql_query: null }, at: now } }]);
  });

  it('answers 404 for a deleted export', () => {
    const deleted: BatchExportEvent = { type: 'BatchExportDeleted', data: { id, at: now } };
    spec.given([created, deleted]).when({ type: 'PauseBatchExport', data: {}, metadata: meta(now) }).thenThrows({ kind: 'not_found' });
    spec.given([created, deleted]).when({ type: 'DeleteBatchExport', data: {}, metadata: meta(now) }).thenThrows({ kind: 'not_found' });
  });
});

describe('intervals and run ids', () => {
  it('cuts time on a fixed grid and names each interval with one run id', () => {
    expect(intervalsBetween(Date.parse('2026-01-01T00:30:00Z'), Date.parse('2026-01-01T02:00:00Z'), 'hour')).toEqual([
      { start: '2026-01-01T00:00:00.000Z', end: '2026-01-01T01:00:00.000Z' },
      { start: '2026-01-01T01:00:00.000Z', end: '2026-01-01T02:00:00.000Z' },
    ]);
    const i = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-01T01:00:00.000Z' };
    expect(runIdFor(id, i)).toBe(runIdFor(id, { ...i }));
    expect(runIdFor(id, i)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runIdFor(id, i)).not.toBe(runIdFor('22222222-2222-4222-8222-222222222222', i));
  });

  it('derives the schema of a SELECT … FROM events', () => {
    expect(parseExportQuery('select event, properties.x as x from events').fields).toEqual([
      { expression: 'event', alias: 'event' },
      { expression: 'properties.x', alias: 'x' },
    ]);
  });

  it('compiles what users write in export queries, and names what it cannot evaluate', () => {
    const q = compileExportQuery(
      "SELECT toString(uuid) AS id, events.event, properties.$browser AS b, properties['$os'] AS os, properties.a.b AS ab, toJSONString(properties) AS p, 'x' AS l, 1.5 AS f, true AS t FROM events WHERE event NOT IN ('a', 'b') AND properties.plan = 'pro' AND properties.n >= 3",
    );
    expect(q.fields.map((f) => f.alias)).toEqual(['id', 'events.event', 'b', 'os', 'ab', 'p', 'l', 'f', 't']);
    expect(q.fields.map((f) => f.expr)).toEqual([
      { kind: 'call', fn: 'toString', arg: { kind: 'column', column: 'uuid' } },
      { kind: 'column', column: 'event' },
      { kind: 'property', path: ['$browser'] },
      { kind: 'property', path: ['$os'] },
      { kind: 'property', path: ['a', 'b'] },
      { kind: 'call', fn: 'toJSONString', arg: { kind: 'column', column: 'properties' } },
      { kind: 'literal', value: 'x' },
      { kind: 'literal', value: 1.5 },
      { kind: 'literal', value: true },
    ]);
    expect(q.where).toEqual([
      { left: { kind: 'column', column: 'event' }, op: 'not in', values: ['a', 'b'] },
      { left: { kind: 'property', path: ['plan'] }, op: '=', values: ['pro'] },
      { left: { kind: 'property', path: ['n'] }, op: '>=', values: [3] },
    ]);
    const refused: [string, string][] = [
      ['SELECT lower(event) FROM events', 'Batch export queries do not support the function lower().'],
      ['SELECT person_id FROM events', 'Batch export queries do not support the field person_id.'],
      ['SELECT person.properties.email FROM events', 'Batch export queries do not support the field person.properties.email.'],
      ['SELECT * FROM events', 'Batch export queries do not support SELECT *: list the fields to export.'],
      ['SELECT DISTINCT event FROM events', 'Batch export queries do not support SELECT DISTINCT.'],
      ["SELECT event FROM events WHERE event = 'a' OR event = 'b'", 'Batch export queries do not support OR in WHERE.'],
      ['SELECT event FROM events ORDER BY timestamp', 'Batch export queries do not support ORDER BY.'],
      ["SELECT event FROM events WHERE event = 'a' LIMIT 10", 'Batch export queries do not support LIMIT.'],
      ['SELECT event FROM events GROUP BY event', 'Batch export queries do not support GROUP BY.'],
      ['SELECT event FROM events e', 'Batch export queries do not support table aliases.'],
      ['SELECT event FROM events WHERE timestamp > now()', 'Batch export queries do not support comparing a field with anything but a literal.'],
      ["SELECT event FROM events WHERE (event = 'a')", 'Batch export queries do not support parentheses in WHERE.'],
      ["SELECT event FROM events WHERE event LIKE 'a%'", 'Batch export queries do not support LIKE in WHERE.'],
      ['SELECT event, event FROM events', 'Batch export queries cannot select two fields under one name: event.'],
    ];
    for (const [query, detail] of refused) expect(() => compileExportQuery(query)).toThrow(detail);
  });
});
