import { rmSync } from 'node:fs';
import { EmbeddedEventStore } from '../../src/eventstore/embedded';
import { EmbeddedReadStore } from '../../src/readstore/embedded';
import { checkpointName, ProjectionRunner } from '../../src/projections/runner';
import { Logger } from '../../src/logger';
import type { Projection } from '../../projections/projection';
import { tempDataDir } from '../support/chronicle';

/** Counts events per stream: any double application would show as a wrong count. */
const counter: Projection = {
  name: 'counter',
  version: 1,
  categories: ['tally'],
  collections: { tallies: [['count']] },
  lag: 'awaited',
  keys: (e) => [{ collection: 'tallies', id: e.streamId }],
  evolve: (doc, e, key) => ({ _id: key.id, count: (doc?.count ?? 0) + 1, last: e.type }),
};

describe('projection runner', () => {
  const dir = tempDataDir();
  let events: EmbeddedEventStore;
  let reads: EmbeddedReadStore;
  let runner: ProjectionRunner;
  const start = async () => {
    runner = new ProjectionRunner(events, reads, [counter], new Logger('silent'));
    await runner.start();
  };

  beforeAll(async () => {
    events = new EmbeddedEventStore(dir);
    reads = new EmbeddedReadStore(dir);
    await start();
  });
  afterAll(async () => {
    await runner.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a write visible to the next read once waitFor resolves', async () => {
    const result = await events.appendToStream('tally-a', [{ type: 'One', data: {} }, { type: 'Two', data: {} }]);
    expect(await runner.waitFor('tally-a', result.position)).toBe(true);
    expect(await reads.get('tallies', 'tally-a')).toMatchObject({ count: 2, last: 'Two' });
    expect(runner.isCaughtUp()).toBe(true);
  });

  it('resumes from its checkpoint after a restart', async () => {
    await runner.stop();
    await events.appendToStream('tally-a', [{ type: 'Three', data: {} }]);
    const written = await events.appendToStream('tally-b', [{ type: 'One', data: {} }]);
    await start();
    await runner.waitFor('tally-b', written.position);
    expect(await reads.get('tallies', 'tally-a')).toMatchObject({ count: 3 });
    expect(await reads.get('tallies', 'tally-b')).toMatchObject({ count: 1 });
    expect(await reads.getCheckpoint(checkpointName(counter))).toBeGreaterThanOrEqual(written.position);
  });

  it('applies nothing twice when the log is replayed from zero (a crash before the checkpoint moved)', async () => {
    await runner.stop();
    await reads.deleteCheckpoint(checkpointName(counter));
    const written = await events.appendToStream('tally-b', [{ type: 'Two', data: {} }]);
    await start();
    await runner.waitFor('tally-b', written.position);
    expect(await reads.get('tallies', 'tally-a')).toMatchObject({ count: 3 });
    expect(await reads.get('tallies', 'tally-b')).toMatchObject({ count: 2 });
  });

  it('rebuilds a new version of a projection from the log instead of skipping what the old documents saw', async () => {
    await runner.stop();
    // Version 2 keeps a different document: with only the replay guard, the old documents would stay as they are.
    const counterV2: Projection = { ...counter, version: 2, evolve: (doc, e, key) => ({ _id: key.id, count: (doc?.count ?? 0) + 1, last: e.type, kind: 'v2' }) };
    runner = new ProjectionRunner(events, reads, [counterV2], new Logger('silent'));
    await runner.start();
    expect(await reads.get('tallies', 'tally-a')).toMatchObject({ count: 3, kind: 'v2' });
    expect(await reads.get('tallies', 'tally-b')).toMatchObject({ count: 2, kind: 'v2' });
    expect(await reads.getCheckpoint(checkpointName(counterV2))).not.toBeNull();
    const written = await events.appendToStream('tally-a', [{ type: 'Four', data: {} }]);
    await runner.waitFor('tally-a', written.position);
    expect(await reads.get('tallies', 'tally-a')).toMatchObject({ count: 4, last: 'Four', kind: 'v2' });
    await runner.stop();
    await start();
  });

  it('moves past events of streams it does not follow without writing a checkpoint for each', async () => {
    const stored = await reads.getCheckpoint(checkpointName(counter));
    const other = await events.appendToStream('elsewhere-1', [{ type: 'Noise', data: {} }]);
    expect(await runner.waitFor('tally-x', other.position)).toBe(true);
    expect(await reads.getCheckpoint(checkpointName(counter))).toBe(stored);
    // A restart from the older checkpoint re-reads only what it skips, and applies nothing twice.
    await runner.stop();
    await start();
    const written = await events.appendToStream('tally-b', [{ type: 'Three', data: {} }]);
    await runner.waitFor('tally-b', written.position);
    expect(await reads.get('tallies', 'tally-b')).toMatchObject({ count: 3 });
  });
});

/** Same streams as `counter`, another read model: counts events per stream type in its own collection. */
const byType = (name: string): Projection => ({
  name,
  version: 1,
  categories: ['shared'],
  collections: { [`${name}_types`]: [] },
  lag: 'awaited',
  keys: (e) => [{ collection: `${name}_types`, id: e.type }],
  evolve: (doc, e, key) => ({ _id: key.id, count: (doc?.count ?? 0) + 1 }),
});

describe('projection runner: projections that follow the same streams', () => {
  const dir = tempDataDir();
  let events: EmbeddedEventStore;
  let reads: EmbeddedReadStore;
  let runner: ProjectionRunner | undefined;
  const first = byType('first');
  const second = byType('second');
  const start = async (projections: Projection[]) => {
    runner = new ProjectionRunner(events, reads, projections, new Logger('silent'));
    await runner.start();
    return runner;
  };
  const count = async (p: Projection, type: string) => (await reads.get(`${p.name}_types`, type))?.count;

  beforeAll(() => {
    events = new EmbeddedEventStore(dir);
    reads = new EmbeddedReadStore(dir);
  });
  afterEach(async () => {
    await runner?.stop();
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('read the log once, through one subscription, each with its own checkpoint', async () => {
    const subscribe = jest.spyOn(events, 'subscribeToAll');
    const r = await start([first, second]);
    const written = await events.appendToStream('shared-1', [{ type: 'A', data: {} }, { type: 'B', data: {} }, { type: 'A', data: {} }]);
    expect(await r.waitFor('shared-1', written.position)).toBe(true);
    expect(subscribe).toHaveBeenCalledTimes(1);
    for (const p of [first, second]) {
      expect(await count(p, 'A')).toBe(2);
      expect(await count(p, 'B')).toBe(1);
      expect(await reads.getCheckpoint(checkpointName(p))).toBeGreaterThanOrEqual(written.position);
    }
  });

  it('let one far behind catch up from its own checkpoint, applying nothing twice to the other, then share again', async () => {
    // A long stretch of log that `first` has projected and `second` (a new read model, say) has not.
    await runner?.stop();
    const subscribe = jest.spyOn(events, 'subscribeToAll');
    const batch = Array.from({ length: 5000 }, () => ({ type: 'Bulk', data: {} }));
    let head = 0n;
    for (let i = 0; i < 6; i++) head = (await events.appendToStream('shared-2', batch)).position;
    await reads.deleteCheckpoint(checkpointName(second));
    for (const collection of Object.keys(second.collections)) await reads.dropCollection(collection);
    let r = await start([first]);
    expect(await r.waitFor('shared-2', head, 30_000)).toBe(true);
    await r.stop();
    expect(await count(first, 'Bulk')).toBe(30_000);

    subscribe.mockClear();
    r = await start([first, second]);
    const live = await events.appendToStream('shared-3', [{ type: 'Live', data: {} }]);
    expect(await r.waitFor('shared-3', live.position, 30_000)).toBe(true);
    expect(await count(first, 'Bulk')).toBe(30_000);
    expect(await count(second, 'Bulk')).toBe(30_000);
    expect(await count(second, 'A')).toBe(2);
    expect(await count(first, 'Live')).toBe(1);
    expect(await count(second, 'Live')).toBe(1);
    // `first` from its checkpoint, `second` alone from zero; once it reached the head, one for both again.
    await eventually(() => subscribe.mock.calls.length === 3);
    const [alone, ...shared] = subscribe.mock.calls.map(([options]) => options.after ?? 0n).sort((a, b) => (a < b ? -1 : 1));
    expect(alone).toBe(0n);
    for (const after of shared) expect(after).toBeGreaterThanOrEqual(head);
    const more = await events.appendToStream('shared-3', [{ type: 'Live', data: {} }]);
    expect(await r.waitFor('shared-3', more.position)).toBe(true);
    expect(await count(first, 'Live')).toBe(2);
    expect(await count(second, 'Live')).toBe(2);
    expect(subscribe).toHaveBeenCalledTimes(3);
  });
});

async function eventually(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 20));
  }
}
