import { rmSync } from 'node:fs';
import { EmbeddedReadStore } from '../../src/readstore/embedded';
import { MongoReadStore } from '../../src/readstore/mongodb';
import { tempDataDir } from '../support/chronicle';
import { readStoreContract } from './read-store.contract';

describe('ReadStore contract: embedded (SQLite documents)', () => {
  const dir = tempDataDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  readStoreContract(async () => new EmbeddedReadStore(dir));
});

const mongo = process.env.MONGODB_URL;
(mongo ? describe : describe.skip)(`ReadStore contract: MongoDB${mongo ? '' : ' (skipped: set MONGODB_URL to run it)'}`, () => {
  readStoreContract(async () => new MongoReadStore(mongo!));
});
