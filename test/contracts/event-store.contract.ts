import { randomUUID } from 'node:crypto';
import { EventStore, StreamNotFoundError, SubscriptionItem, WrongExpectedVersionError } from '../../src/eventstore/port';

const ev = (type: string, data: unknown = {}, id?: string) => ({ type, data, id });

async function collect(store: EventStore, after: bigint, stopWhen: (items: SubscriptionItem[]) => boolean, filter?: any) {
  const items: SubscriptionItem[] = [];
  const sub = store.subscribeToAll({ after, filter });
  const deadline = Date.now() + 10_000;
  for await (const item of sub) {
    items.push(item);
    if (stopWhen(items) || Date.now() > deadline) break;
  }
  await sub.unsubscribe();
  return items;
}

/** The EventStore port's contract: EventStoreDB's semantics. Every adapter runs it. */
export function eventStoreContract(makeStore: () => Promise<EventStore>) {
  let store: EventStore;
  // Stream names are unique per run so the suite can run against a long-lived EventStoreDB.
  const run = randomUUID().replace(/-/g, '').slice(0, 12);
  const stream = (name: string) => `${name}-${run}`;

  beforeAll(async () => {
    store = await makeStore();
  });
  afterAll(() => store.close());

  it('numbers a new stream from revision 0 and gives a global position', async () => {
    const s = stream('contractnew');
    const result = await store.appendToStream(s, [ev('A'), ev('B')], { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(1n);
    expect(result.position).toBeGreaterThan(0n);
    const events = await store.readStream(s);
    expect(events.map((e) => [e.type, e.revision])).toEqual([['A', 0n], ['B', 1n]]);
  });

  it('checks no_stream, stream_exists, an exact revision and any', async () => {
    const s = stream('contractexpect');
    await expect(store.appendToStream(s, [ev('A')], { expectedRevision: 'stream_exists' })).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await store.appendToStream(s, [ev('A')], { expectedRevision: 'no_stream' });
    const conflict = await store.appendToStream(s, [ev('B')], { expectedRevision: 'no_stream' }).catch((e) => e);
    expect(conflict).toBeInstanceOf(WrongExpectedVersionError);
    expect(conflict).toMatchObject({ expectedVersion: 'no_stream', actualVersion: 0n });
    await store.appendToStream(s, [ev('B')], { expectedRevision: 0n });
    const stale = await store.appendToStream(s, [ev('C')], { expectedRevision: 0n }).catch((e) => e);
    expect(stale).toMatchObject({ expectedVersion: 0n, actualVersion: 1n });
    await store.appendToStream(s, [ev('C')], { expectedRevision: 'stream_exists' });
    const last = await store.appendToStream(s, [ev('D')], { expectedRevision: 'any' });
    expect(last.nextExpectedRevision).toBe(3n);
  });

  it('lets exactly one of two writers at the same revision win', async () => {
    const s = stream('contractrace');
    await store.appendToStream(s, [ev('A')], { expectedRevision: 'no_stream' });
    const results = await Promise.allSettled([
      store.appendToStream(s, [ev('X')], { expectedRevision: 0n }),
      store.appendToStream(s, [ev('Y')], { expectedRevision: 0n }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(s)).toHaveLength(2);
  });

  it('treats re-appending the same event ids at the same revision as already done', async () => {
    const s = stream('contractidem');
    const batch = [ev('A', { n: 1 }, randomUUID()), ev('B', { n: 2 }, randomUUID())];
    const first = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
    const again = await store.appendToStream(s, batch, { expectedRevision: 'no_stream' });
    expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
    expect(await store.readStream(s)).toHaveLength(2);
  });

  it('reports a missing stream as StreamNotFoundError and reads backwards', async () => {
    await expect(store.readStream(stream('contractmissing'))).rejects.toBeInstanceOf(StreamNotFoundError);
    const s = stream('contractback');
    await store.appendToStream(s, [ev('A'), ev('B'), ev('C')]);
    const last = await store.readStream(s, { direction: 'backwards', maxCount: 1 });
    expect(last.map((e) => e.type)).toEqual(['C']);
    const fromOne = await store.readStream(s, { fromRevision: 1n });
    expect(fromOne.map((e) => e.type)).toEqual(['B', 'C']);
  });

  it('keeps data, metadata and ids as written', async () => {
    const s = stream('contractdata');
    const id = randomUUID();
    await store.appendToStream(s, [{ id, type: 'Typed', data: { a: [1, 'x', null], b: { c: true } }, metadata: { now: '2026-01-01T00:00:00.000Z' } }]);
    const [event] = await store.readStream(s);
    expect(event).toMatchObject({ id, type: 'Typed', data: { a: [1, 'x', null], b: { c: true } }, streamId: s });
    expect(event.metadata).toMatchObject({ now: '2026-01-01T00:00:00.000Z' });
  });

  it('orders the whole log by strictly increasing positions, read from an exclusive position and filtered', async () => {
    const head = await store.headPosition();
    const a = stream('contractalla');
    const b = stream('contractallb');
    await store.appendToStream(a, [ev('A1')]);
    await store.appendToStream(b, [ev('B1')]);
    await store.appendToStream(a, [ev('A2')]);
    const all = (await store.readAll({ after: head, maxCount: 1000 })).filter((e) => e.streamId === a || e.streamId === b);
    expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'A2']);
    for (let i = 1; i < all.length; i++) expect(all[i].position).toBeGreaterThan(all[i - 1].position);
    const afterFirst = await store.readAll({ after: all[0].position, maxCount: 1000 });
    expect(afterFirst.map((e) => e.position)).not.toContain(all[0].position);
    const onlyA = await store.readAll({ after: head, maxCount: 1000, filter: { categories: ['contractalla'] } });
    expect(onlyA.map((e) => e.type)).toEqual(['A1', 'A2']);
    const onlyB1 = await store.readAll({ after: head, maxCount: 1000, filter: { eventTypes: ['B1'] } });
    expect(onlyB1.map((e) => e.streamId)).toEqual([b]);
    expect(await store.headPosition()).toBe(all[2].position);
  });

  it('subscribes from an exclusive position: catches up, says so, then delivers live events', async () => {
    const s = stream('contractsub');
    const first = await store.appendToStream(s, [ev('Before1'), ev('Before2')]);
    const filter = { categories: ['contractsub'] };
    const sub = store.subscribeToAll({ after: first.position - 1n, filter });
    const seen: string[] = [];
    let caughtUp = false;
    const done = (async () => {
      for await (const item of sub) {
        if (item.kind === 'event') seen.push(item.event.type);
        else if (item.caughtUp && !caughtUp) {
          caughtUp = true;
          await store.appendToStream(s, [ev('Live')]);
        }
        if (seen.includes('Live')) break;
      }
    })();
    await done;
    await sub.unsubscribe();
    expect(seen).toEqual(['Before2', 'Live']);
  });

  it('reports checkpoints that move past events the filter leaves out', async () => {
    const head = await store.headPosition();
    await store.appendToStream(stream('contractother'), [ev('Ignored')]);
    const items = await collect(store, head, (list) => list.some((i) => i.kind === 'checkpoint' && i.caughtUp), { categories: ['contractnone'] });
    expect(items.filter((i) => i.kind === 'event')).toEqual([]);
  });
}
