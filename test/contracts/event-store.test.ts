import { rmSync } from 'node:fs';
import { EmbeddedEventStore } from '../../src/eventstore/embedded';
import { EventStoreDbEventStore } from '../../src/eventstore/eventstoredb';
import { tempDataDir } from '../support/chronicle';
import { eventStoreContract } from './event-store.contract';

describe('EventStore contract: embedded (SQLite)', () => {
  const dir = tempDataDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  eventStoreContract(async () => new EmbeddedEventStore(dir));

  it('keeps every acknowledged event across a reopen of the same file', async () => {
    const first = new EmbeddedEventStore(dir, 'reopen.db');
    await first.appendToStream('reopen-1', [{ type: 'A', data: { n: 1 } }], { expectedRevision: 'no_stream' });
    await first.close();
    const second = new EmbeddedEventStore(dir, 'reopen.db');
    expect((await second.readStream('reopen-1')).map((e) => e.data)).toEqual([{ n: 1 }]);
    await second.close();
  });
});

const esdb = process.env.EVENTSTORE_URL;
(esdb ? describe : describe.skip)(`EventStore contract: EventStoreDB${esdb ? '' : ' (skipped: set EVENTSTORE_URL to run it)'}`, () => {
  eventStoreContract(async () => new EventStoreDbEventStore(esdb!));
});
