import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { EmbeddedEventStore } from '../../src/eventstore/embedded';
import type { EventStore, NewEvent } from '../../src/eventstore/port';
import { EmbeddedReadStore } from '../../src/readstore/embedded';
import { IngestedEventData } from '../../domain/ingestion/ingested-event';
import { IndexedIngestionWriter, MAX_APPEND_BYTES, splitIntoAppends, toNewEvent } from '../../src/ingestion/writer';
import { tempDataDir } from '../support/chronicle';
import { storedUuids } from './helpers';

const event = (padding = 0): IngestedEventData => {
  const uuid = randomUUID();
  return {
    uuid,
    project_id: 7,
    event: 'e',
    distinct_id: 'd',
    properties: { distinct_id: 'd', pad: 'x'.repeat(padding) },
    timestamp: '2026-01-01T00:00:00.000Z',
    received_at: '2026-01-01T00:00:00.000Z',
    historical_migration: false,
  };
};

/**
 * EventStoreDB forgets event ids after its idempotency window; this store never remembers them (it gives each
 * append fresh ids), so only the writer's own dedupe stands between a resend and a duplicate.
 */
function forgetfulStore(inner: EventStore): EventStore {
  return {
    appendToStream: (stream, events, options) => inner.appendToStream(stream, events.map((e) => ({ ...e, id: randomUUID() })), options),
    readStream: async (stream, options) => (await inner.readStream(stream, options)).map((e) => ({ ...e, id: e.data.uuid })),
    readAll: (o) => inner.readAll(o),
    subscribeToAll: (o) => inner.subscribeToAll(o),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
  };
}

describe('ingestion writer', () => {
  const dir = tempDataDir();
  const inner = new EmbeddedEventStore(dir);
  const readStore = new EmbeddedReadStore(dir);
  const store = forgetfulStore(inner);
  afterAll(async () => {
    await inner.close();
    await readStore.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const appendsOf = (events: IngestedEventData[]): NewEvent[][] => splitIntoAppends(events.map((e) => toNewEvent(e)));

  it('splits by serialized size, each append under the limit, order kept', () => {
    const events = Array.from({ length: 5000 }, () => toNewEvent(event(500)));
    const appends = splitIntoAppends(events);
    expect(appends.length).toBeGreaterThan(2);
    for (const a of appends) expect(a.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e.data)) + JSON.stringify(e.metadata).length + 200, 0)).toBeLessThanOrEqual(1024 * 1024);
    expect(appends.flat().map((e) => e.id)).toEqual(events.map((e) => e.event.id));
    expect(MAX_APPEND_BYTES).toBeLessThan(1024 * 1024);
  });

  it('stores a resend once, even one the store itself would not recognise', async () => {
    const writer = new IndexedIngestionWriter(store, readStore);
    const batch = Array.from({ length: 50 }, () => event());
    await writer.write(7, appendsOf(batch));
    await writer.write(7, appendsOf(batch));
    await writer.write(7, appendsOf([...batch.slice(10), event()]));
    const uuids = await storedUuids(inner, 7);
    expect(uuids).toHaveLength(51);
    expect(new Set(uuids).size).toBe(51);
  });

  it('finds events a crashed writer appended without indexing, and a racing writer in another process', async () => {
    const crashed = Array.from({ length: 20 }, () => event());
    // The crash: appended, never indexed.
    await store.appendToStream('ingestion-7', crashed.map((e) => toNewEvent(e).event));
    const one = new IndexedIngestionWriter(store, readStore);
    const other = new IndexedIngestionWriter(store, readStore);
    const fresh = Array.from({ length: 30 }, () => event());
    await Promise.all([one.write(7, appendsOf([...crashed, ...fresh])), other.write(7, appendsOf([...fresh, ...crashed]))]);
    const uuids = await storedUuids(inner, 7);
    expect(new Set(uuids).size).toBe(uuids.length);
    for (const e of [...crashed, ...fresh]) expect(uuids).toContain(e.uuid);
  });
});
