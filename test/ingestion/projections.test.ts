import type { Doc } from '../../src/readstore/port';
import { applyEvent, ProjectedEvent, Projection } from '../../projections/projection';
import { eventsProjection } from '../../projections/events';
import { personsProjection } from '../../projections/persons';
import { groupsProjection } from '../../projections/groups';
import { eventDefinitionsProjection } from '../../projections/event-definitions';
import { usageProjection } from '../../projections/usage';
import { INGESTED_EVENT_TYPE, IngestedEventData, ingestionStream } from '../../domain/ingestion/ingested-event';
import { mergeStates, visibleProperties } from '../../domain/ingestion/property-updates';

let position = 0;
function ingested(event: string, distinctId: string, timestamp: string, properties: Record<string, unknown> = {}, historical = false): ProjectedEvent {
  position += 1;
  const data: IngestedEventData = {
    uuid: `00000000-0000-7000-8000-${String(position).padStart(12, '0')}`,
    project_id: 1,
    event,
    distinct_id: distinctId,
    properties: { ...properties, distinct_id: distinctId },
    timestamp,
    received_at: '2026-03-01T10:00:00.000Z',
    historical_migration: historical,
  };
  return { type: INGESTED_EVENT_TYPE, data, metadata: {}, streamId: ingestionStream(1), revision: BigInt(position - 1), position: BigInt(position) };
}

function run(projection: Projection, events: ProjectedEvent[], times = 1) {
  const docs = new Map<string, Doc | null>();
  for (const e of events) for (let i = 0; i < times; i++) applyEvent(projection, e, docs);
  return docs;
}

/** A historical import that arrives after live data, with a merge and a group. */
const history = [
  ingested('$pageview', 'anon-1', '2026-02-01T00:00:00.000Z', { $set_once: { first_url: '/live' } }),
  ingested('$identify', 'alice', '2026-02-02T00:00:00.000Z', { $anon_distinct_id: 'anon-1', $set: { plan: 'pro', email: 'a@x.io' } }),
  ingested('$pageview', 'alice', '2025-01-01T00:00:00.000Z', { $set: { plan: 'free' }, $set_once: { first_url: '/historical' } }, true),
  ingested('$create_alias', 'alice', '2025-01-02T00:00:00.000Z', { alias: 'alice-old' }, true),
  ingested('$pageview', 'alice-old', '2024-12-31T00:00:00.000Z', { $set: { legacy: true } }, true),
  ingested('$groupidentify', 'alice', '2026-02-03T00:00:00.000Z', { $group_type: 'company', $group_key: 'acme', $group_set: { size: 50 } }),
  ingested('$group_identify', 'alice', '2025-01-03T00:00:00.000Z', { $group_type: 'company', $group_key: 'acme', $group_set: { size: 5, founded: 2001 } }, true),
];

describe('ingestion projections', () => {
  it.each([eventsProjection, personsProjection, groupsProjection, eventDefinitionsProjection, usageProjection])(
    '$name: applying every event twice changes nothing',
    (projection) => {
      expect(run(projection, history, 2)).toEqual(run(projection, history, 1));
    },
  );

  it('keeps one event document per uuid', () => {
    const docs = run(eventsProjection, history);
    expect(docs.size).toBe(history.length);
    const first = [...docs.values()][0]!;
    expect(first).toMatchObject({ uuid: history[0].data.uuid, event: '$pageview', distinct_id: 'anon-1', timestamp: '2026-02-01T00:00:00.000Z' });
  });

  it('ends persons in the state of event-time order, whatever order they arrived in', () => {
    const docs = [...run(personsProjection, history).values()] as Doc[];
    const byId = Object.fromEntries(docs.map((d) => [d.distinct_id, d]));
    expect(byId['anon-1'].merged_into).toBe('alice');
    expect(byId['alice-old'].merged_into).toBe('alice');
    expect(byId['alice'].merged_into).toBeNull();
    const properties = visibleProperties(mergeStates(docs.map((d) => d.props)));
    // The newer live $set wins over the older historical one; the older historical $set_once wins over the live one.
    expect(properties).toEqual({ plan: 'pro', email: 'a@x.io', first_url: '/historical', legacy: true });
    // The same events in timestamp order give the same person.
    // (arriving in that order, they take log positions in that order)
    const sorted = [...history]
      .sort((a, b) => (a.data.timestamp < b.data.timestamp ? -1 : 1))
      .map((e, i) => ({ ...e, position: BigInt(1000 + i) }));
    const inOrder = [...run(personsProjection, sorted).values()] as Doc[];
    expect(visibleProperties(mergeStates(inOrder.map((d) => d.props)))).toEqual(properties);
    expect(byId['alice'].created_at).toBe('2025-01-01T00:00:00.000Z');
  });

  it('never merges an identified id away', () => {
    const events = [
      ingested('$identify', 'bob', '2026-01-01T00:00:00.000Z'),
      ingested('$identify', 'carol', '2026-01-02T00:00:00.000Z', { $anon_distinct_id: 'bob' }),
    ];
    const byId = Object.fromEntries([...run(personsProjection, events).values()].map((d) => [d!.distinct_id, d!]));
    expect(byId.bob.merged_into).toBeNull();
  });

  it('applies $group_set last-writer-wins by event time, under both event names', () => {
    const [group] = [...run(groupsProjection, history).values()] as Doc[];
    expect(group).toMatchObject({ group_type: 'company', group_key: 'acme', created_at: '2025-01-03T00:00:00.000Z' });
    expect(visibleProperties(group.props)).toEqual({ size: 50, founded: 2001 });
  });

  it('counts event definitions with first and last seen by event time', () => {
    const docs = run(eventDefinitionsProjection, history);
    const pageview = [...docs.values()].find((d) => d!.name === '$pageview')!;
    expect(pageview).toMatchObject({ volume: 3, first_seen_at: '2024-12-31T00:00:00.000Z', last_seen_at: '2026-02-01T00:00:00.000Z' });
  });

  it('counts billable and historical events per day of receipt', () => {
    const [day] = [...run(usageProjection, history).values()] as Doc[];
    expect(day).toMatchObject({ project_id: 1, date: '2026-03-01', billable_events: 3, historical_events: 4 });
  });
});
