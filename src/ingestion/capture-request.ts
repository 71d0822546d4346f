import { ApiError } from '../http/errors';
import { captureErrors } from './body';
import type { IngestedEventData } from '../../domain/ingestion/ingested-event';
import { isUuid, uuidv7 } from './uuid';

/** Everything of a stored event but the project, which the token selects. */
export type CapturedEvent = Omit<IngestedEventData, 'project_id'>;

export type CaptureRequest = { token: string; historicalMigration: boolean; events: CapturedEvent[] };

const MAX_DISTINCT_ID = 200;
/** The reference clamps timestamps more than 23 hours ahead of the server's clock to now. */
const MAX_FUTURE_MS = 23 * 3600 * 1000;
/** Years outside 0–9999 become the Unix epoch, as in the reference. */
const MIN_TIMESTAMP = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_TIMESTAMP = Date.parse('9999-12-31T23:59:59.999Z');

const tokenError = (reason: string) =>
  new ApiError(401, 'authentication_error', reason, `Provided API key is not valid: ${reason}`);

export const missingApiKey = () =>
  new ApiError(401, 'authentication_error', 'missing_api_key', 'API key not provided. You can find your project API key in PostHog project settings.');

export const invalidApiKey = () =>
  new ApiError(401, 'authentication_error', 'invalid_api_key', 'Project API key invalid. You can find your project API key in PostHog project settings.');

/** The reference's shape checks, so a personal key pasted in by mistake is named as such. */
function checkToken(token: unknown): string {
  if (token === undefined || token === null) throw missingApiKey();
  if (typeof token !== 'string') throw tokenError('not_string');
  if (token.length === 0) throw tokenError('empty');
  if (token.length > 64) throw tokenError('too_long');
  if (!/^[\x20-\x7e]*$/.test(token)) throw tokenError('not_ascii');
  if (token.startsWith('phx_')) throw tokenError('personal_api_key');
  return token;
}

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function eventToken(e: unknown): unknown {
  if (!isObject(e)) return undefined;
  return e.api_key ?? e.token ?? e.$token ?? (isObject(e.properties) ? e.properties.token : undefined);
}

/** Strict ISO 8601 date or date-time (with optional zone); anything Date.parse accepts beyond that is refused. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i;

function parseTimestamp(value: unknown): number | null {
  if (typeof value !== 'string' || !ISO_8601.test(value.trim())) return null;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Reads a capture body (a batch envelope, a bare array or one event) into events ready to store. Validation is
 * all or nothing: the first bad event refuses the request, naming its index and field, so a client never has
 * half a batch silently dropped.
 */
export function parseCaptureRequest(body: unknown, nowMs: number): CaptureRequest {
  let items: unknown[];
  let envelope: Record<string, any> = {};
  let single = false;
  if (Array.isArray(body)) {
    items = body;
  } else if (isObject(body) && 'batch' in body) {
    if (!Array.isArray(body.batch)) throw captureErrors.invalidPayload('batch must be a list of events.', 'batch');
    envelope = body;
    items = body.batch;
  } else if (isObject(body)) {
    envelope = body;
    items = [body];
    single = true;
  } else {
    throw captureErrors.invalidPayload('the body must be a batch object, a list of events or one event.');
  }
  if (items.length === 0) throw captureErrors.invalidPayload('the request holds no event.', single ? null : 'batch');

  let token = envelope.api_key ?? envelope.token ?? (single ? eventToken(envelope) : undefined);
  if (token === undefined) {
    const tokens = new Set(items.map(eventToken).filter((t) => t !== undefined));
    if (tokens.size > 1) throw new ApiError(401, 'authentication_error', 'invalid_api_key', 'Batch submitted with inconsistent api_key values.');
    token = tokens.values().next().value;
  }
  const checkedToken = checkToken(token);

  const sentAt = parseTimestamp(envelope.sent_at);
  const historicalMigration = !single && envelope.historical_migration === true;
  const receivedAt = new Date(nowMs).toISOString();
  const seen = new Set<string>();
  const events: CapturedEvent[] = [];
  items.forEach((item, index) => {
    const attr = (field?: string) => (single ? field ?? null : field ? `batch__${index}__${field}` : `batch__${index}`);
    const invalid = (detail: string, field?: string, code = 'invalid_input') => new ApiError(400, 'validation_error', code, detail, attr(field));
    if (!isObject(item)) throw invalid('Invalid payload: some events are null or not objects.', undefined, 'invalid_payload');
    if (typeof item.event !== 'string' || item.event.length === 0) {
      throw invalid('You need to set user event name, field `event`.', 'event', item.event === undefined ? 'required' : 'invalid_input');
    }
    if (item.properties !== undefined && item.properties !== null && !isObject(item.properties)) {
      throw invalid('Expected a dictionary of properties.', 'properties');
    }
    const properties: Record<string, unknown> = isObject(item.properties) ? { ...item.properties } : {};
    const rawId = item.distinct_id ?? item.$distinct_id ?? properties.distinct_id;
    const distinctId = typeof rawId === 'number' && Number.isFinite(rawId) ? String(rawId) : rawId;
    if (typeof distinctId !== 'string' || distinctId.trim().length === 0) {
      throw invalid('You need to set user distinct ID field `distinct_id`.', 'distinct_id', rawId === undefined ? 'required' : 'invalid_input');
    }
    let uuid: string;
    if (item.uuid === undefined || item.uuid === null) uuid = uuidv7(nowMs);
    else if (isUuid(item.uuid)) uuid = item.uuid.toLowerCase();
    else throw invalid(`"${String(item.uuid)}" is not a valid UUID.`, 'uuid');
    let timestampMs = nowMs;
    if (item.timestamp !== undefined && item.timestamp !== null) {
      const parsed = parseTimestamp(item.timestamp);
      if (parsed === null) throw invalid('Datetime has wrong format. Use ISO 8601.', 'timestamp');
      // Clock skew: a device's clock may be off, but the gap between the event and sending is trustworthy.
      // A historical migration carries times recorded by another system, not by the sender's clock: kept as given
      // (else every imported event would shift by the request's transit time).
      const correct = sentAt !== null && properties.$ignore_sent_at !== true && !historicalMigration;
      timestampMs = correct ? nowMs + (parsed - sentAt) : parsed;
    } else if (typeof item.offset === 'number' && Number.isFinite(item.offset)) {
      timestampMs = nowMs - item.offset;
    }
    if (timestampMs - nowMs > MAX_FUTURE_MS) timestampMs = nowMs;
    if (!Number.isFinite(timestampMs) || timestampMs < MIN_TIMESTAMP || timestampMs > MAX_TIMESTAMP) timestampMs = 0;
    // A uuid repeated inside one batch is the same event sent twice: stored once, like a resend.
    if (seen.has(uuid)) return;
    seen.add(uuid);
    const id = distinctId.slice(0, MAX_DISTINCT_ID);
    properties.distinct_id = id;
    events.push({
      uuid,
      event: item.event,
      distinct_id: id,
      properties,
      timestamp: new Date(timestampMs).toISOString(),
      received_at: receivedAt,
      historical_migration: historicalMigration,
    });
  });
  return { token: checkedToken, historicalMigration, events };
}
