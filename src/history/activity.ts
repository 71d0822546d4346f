import type { DocumentKey, Projection } from '../../projections/projection';
import type { Services } from '../container';
import { userSummary, type UserDoc } from '../identity/documents';
import { eventTime, TimelineEntry } from './timeline';

/** An entry of the activity log, in the reference product's shape. */
export type ActivityEntry = {
  id: string;
  user: ReturnType<typeof userSummary>;
  activity: string;
  scope: string;
  item_id: string;
  detail: { name: string | null; changes: { type: string; action: string; field: string; before: unknown; after: unknown }[] };
  created_at: string;
};

export type TrackedItem = { stream: string; key: DocumentKey };

export type ActivitySource = {
  scope: string;
  projection: Projection;
  /** Fields never shown in a change (secrets, bulky internals). */
  hidden: readonly string[];
  nameOf(doc: Record<string, any> | null): string | null;
  /** Events that are more than an update, by the verb the log shows for them (DomainVerified → 'verified'). */
  verbs?: Record<string, string>;
};

/** 'created' and 'deleted' from what happened to the document; a named verb for actions; else 'updated'. */
function activityOf(source: ActivitySource, entry: TimelineEntry): string {
  if (!entry.before) return 'created';
  if (!entry.after || (entry.after.deleted === true && entry.before.deleted !== true)) return 'deleted';
  return source.verbs?.[entry.event.type] ?? 'updated';
}

/** Turns timeline entries into activity entries, resolving users once for all of them. */
export async function toActivityEntries(services: Services, rows: { source: ActivitySource; item: TrackedItem; entry: TimelineEntry }[]) {
  const userIds = [...new Set(rows.map((r) => r.entry.event.metadata?.userId).filter((id): id is number => typeof id === 'number'))];
  const users = new Map((await services.readStore.getMany<UserDoc>('users', userIds)).map((u) => [u.id, u]));
  return rows.map(({ source, item, entry }): ActivityEntry => {
    const activity = activityOf(source, entry);
    const action = activity === 'created' ? 'created' : activity === 'deleted' ? 'deleted' : 'changed';
    return {
      id: entry.event.id,
      user: userSummary(users.get(entry.event.metadata?.userId)),
      activity,
      scope: source.scope,
      item_id: String(item.key.id),
      detail: {
        name: source.nameOf(entry.after ?? entry.before),
        changes: entry.changes.map((c) => ({ type: source.scope, action, field: c.field, before: c.before, after: c.after })),
      },
      created_at: new Date(eventTime(entry.event)).toISOString(),
    };
  });
}

export type ActivityFilter = { user?: string; after?: Date; before?: Date };

/** Newest first, filtered by acting user (id or uuid) and time. */
export function filterActivity(entries: ActivityEntry[], filter: ActivityFilter) {
  return entries
    .filter((e) => !filter.user || (e.user && (String(e.user.id) === filter.user || e.user.uuid === filter.user)))
    .filter((e) => !filter.after || Date.parse(e.created_at) >= filter.after.getTime())
    .filter((e) => !filter.before || Date.parse(e.created_at) < filter.before.getTime())
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : -1));
}
