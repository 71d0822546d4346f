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

  it('moves its checkpoint past events of streams it does not follow', async () => {
    const other = await events.appendToStream('elsewhere-1', [{ type: 'Noise', data: {} }]);
    expect(await runner.waitFor('tally-x', other.position)).toBe(true);
    expect(await reads.getCheckpoint(checkpointName(counter))).toBeGreaterThanOrEqual(other.position);
  });
});
