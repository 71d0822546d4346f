import { createHash } from 'node:crypto';

/** The schedules an export may run on (decisions.md: every interval is available, `every 5 minutes` too). */
export const INTERVALS = ['hour', 'day', 'week', 'every 5 minutes'] as const;
export type Interval = (typeof INTERVALS)[number];

const MINUTE = 60_000;
export const INTERVAL_MS: Record<Interval, number> = {
  'every 5 minutes': 5 * MINUTE,
  hour: 60 * MINUTE,
  day: 24 * 60 * MINUTE,
  week: 7 * 24 * 60 * MINUTE,
};

/** 1970-01-01 was a Thursday: weeks are aligned on Mondays 00:00 UTC (ISO weeks), the others on the epoch. */
const WEEK_ANCHOR_MS = 4 * 24 * 60 * MINUTE;

export type DataInterval = { start: string; end: string };

const anchorOf = (interval: Interval) => (interval === 'week' ? WEEK_ANCHOR_MS : 0);

/** Start of the interval that contains `ms`. */
export function floorToInterval(ms: number, interval: Interval): number {
  const size = INTERVAL_MS[interval];
  const anchor = anchorOf(interval);
  return Math.floor((ms - anchor) / size) * size + anchor;
}

export function ceilToInterval(ms: number, interval: Interval): number {
  const floor = floorToInterval(ms, interval);
  return floor === ms ? ms : floor + INTERVAL_MS[interval];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The grid intervals that overlap [fromMs, toMs), oldest first, at most `limit` of them. Both the schedule and
 * backfills cut time on this one grid, so the same stretch of time always maps to the same intervals.
 */
export function intervalsBetween(fromMs: number, toMs: number, interval: Interval, limit = Number.POSITIVE_INFINITY): DataInterval[] {
  const size = INTERVAL_MS[interval];
  const out: DataInterval[] = [];
  for (let start = floorToInterval(fromMs, interval); start < toMs && out.length < limit; start += size) {
    out.push({ start: iso(start), end: iso(start + size) });
  }
  return out;
}

const RUN_NAMESPACE = '6f1d3c1e-8b1a-4c55-9a8e-2f7c0b1b9e42';

/**
 * A run's id is a UUID (version 5 layout) derived from its export and data interval. Two attempts to create
 * the run of one interval, from the schedule and from a backfill, or from two workers, name the same stream, so
 * the event store's no-stream check makes "one run per interval" a fact rather than a hope.
 */
export function runIdFor(batchExportId: string, interval: DataInterval): string {
  const hash = createHash('sha1').update(`${RUN_NAMESPACE}/${batchExportId}/${interval.start}/${interval.end}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
