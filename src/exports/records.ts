import type { Comparison, ExportQuery, Expr, Literal } from '../../domain/batch-export/hogql';
import type { IngestedEventData } from '../../domain/ingestion/ingested-event';

/** What an export delivers: one flat record per event or person, keyed by field name. */
export type ExportRecord = Record<string, unknown>;

export type ColumnType = 'text' | 'jsonb' | 'timestamptz' | 'integer' | 'bigint' | 'double' | 'boolean';
export type Column = { name: string; type: ColumnType };

/**
 * How an export's records sit in a table destination. `key` names the column that identifies a record (the event
 * uuid, the person id): writing a record twice leaves one row. When no selected field carries it, `key` is an
 * extra column. `replace`: a later record of the same key replaces the row (persons change; events do not).
 */
export type RecordShape = { columns: Column[]; key: string; keyIsColumn: boolean; replace: boolean };

/** The reference's JSONLines fields for the events model. */
export const EVENTS_SHAPE: RecordShape = {
  columns: [
    { name: 'uuid', type: 'text' },
    { name: 'event', type: 'text' },
    { name: 'properties', type: 'jsonb' },
    { name: 'distinct_id', type: 'text' },
    { name: 'team_id', type: 'integer' },
    { name: 'timestamp', type: 'timestamptz' },
    { name: 'created_at', type: 'timestamptz' },
  ],
  key: 'uuid',
  keyIsColumn: true,
  replace: false,
};

export const PERSONS_SHAPE: RecordShape = {
  columns: [
    { name: 'team_id', type: 'integer' },
    { name: 'distinct_id', type: 'text' },
    { name: 'person_id', type: 'text' },
    { name: 'properties', type: 'jsonb' },
    { name: 'created_at', type: 'timestamptz' },
    { name: 'updated_at', type: 'timestamptz' },
    { name: 'distinct_ids', type: 'jsonb' },
  ],
  key: 'person_id',
  keyIsColumn: true,
  replace: true,
};

/** A table needs a key column; this one holds the event uuid when the query selects no field that does. */
export const EXTRA_KEY_COLUMN = '_export_key';

export const eventRecord = (d: IngestedEventData): ExportRecord => ({
  uuid: d.uuid,
  event: d.event,
  properties: d.properties,
  distinct_id: d.distinct_id,
  team_id: d.project_id,
  timestamp: d.timestamp,
  created_at: d.received_at,
});

function column(d: IngestedEventData, name: string): unknown {
  switch (name) {
    case 'team_id':
      return d.project_id;
    case 'created_at':
    case 'inserted_at':
    case '_inserted_at':
      return d.received_at;
    default:
      return (d as unknown as Record<string, unknown>)[name];
  }
}

/** HogQL reads a property as text: strings as they are, anything else as its JSON, a missing one as null. */
const asText = (v: unknown): string | null => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** A property's value as stored (what toJSONString encodes); everything else as evaluate() gives it. */
function raw(expr: Expr, d: IngestedEventData): unknown {
  if (expr.kind !== 'property') return evaluate(expr, d);
  let v: unknown = d.properties;
  for (const part of expr.path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function evaluate(expr: Expr, d: IngestedEventData): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'column':
      return column(d, expr.column);
    case 'property':
      return asText(raw(expr, d));
    case 'call':
      return expr.fn === 'toString' ? asText(evaluate(expr.arg, d)) : JSON.stringify(raw(expr.arg, d) ?? null);
  }
}

function typeOf(expr: Expr): ColumnType {
  switch (expr.kind) {
    case 'literal':
      if (typeof expr.value === 'number') return Number.isInteger(expr.value) ? 'bigint' : 'double';
      return typeof expr.value === 'boolean' ? 'boolean' : 'text';
    case 'column':
      if (expr.column === 'properties') return 'jsonb';
      if (expr.column === 'team_id') return 'integer';
      return ['timestamp', 'created_at', 'inserted_at', '_inserted_at'].includes(expr.column) ? 'timestamptz' : 'text';
    default:
      return 'text';
  }
}

function matches(c: Comparison, d: IngestedEventData): boolean {
  const v = evaluate(c.left, d);
  if (v === null || v === undefined) return false;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  const equals = (l: Literal) => (typeof l === 'number' ? Number(text) === l : l === null ? false : text === String(l));
  const order = (l: Literal) => (typeof l === 'number' ? Number(text) - l : text < String(l) ? -1 : text > String(l) ? 1 : 0);
  const [first] = c.values;
  switch (c.op) {
    case '=':
      return equals(first);
    case '!=':
      return !equals(first);
    case 'in':
      return c.values.some(equals);
    case 'not in':
      return !c.values.some(equals);
    case '<':
      return order(first) < 0;
    case '<=':
      return order(first) <= 0;
    case '>':
      return order(first) > 0;
    case '>=':
      return order(first) >= 0;
  }
}

const isUuid = (e: Expr): boolean => (e.kind === 'column' && e.column === 'uuid') || (e.kind === 'call' && e.fn === 'toString' && isUuid(e.arg));

/** What the worker does with each event of an events export: keep it or not, and the record it becomes. */
export type EventMapping = { shape: RecordShape; where: (d: IngestedEventData) => boolean; record: (d: IngestedEventData) => ExportRecord };

export const DEFAULT_EVENT_MAPPING: EventMapping = { shape: EVENTS_SHAPE, where: () => true, record: eventRecord };

export function eventMapping(query: ExportQuery | null): EventMapping {
  if (!query) return DEFAULT_EVENT_MAPPING;
  const keyField = query.fields.find((f) => isUuid(f.expr));
  return {
    shape: {
      columns: query.fields.map((f) => ({ name: f.alias, type: typeOf(f.expr) })),
      key: keyField?.alias ?? EXTRA_KEY_COLUMN,
      keyIsColumn: Boolean(keyField),
      replace: false,
    },
    where: (d) => query.where.every((c) => matches(c, d)),
    record: (d) => Object.fromEntries(query.fields.map((f) => [f.alias, evaluate(f.expr, d)])),
  };
}
