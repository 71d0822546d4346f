import { randomUUID } from 'node:crypto';
import type { Doc, ReadStore } from '../../src/readstore/port';

/** The ReadStore port's contract: the MongoDB subset both adapters implement. Every adapter runs it. */
export function readStoreContract(makeStore: () => Promise<ReadStore>) {
  let store: ReadStore;
  const run = randomUUID().replace(/-/g, '').slice(0, 10);
  const col = (name: string) => `${name}_${run}`;
  const people: Doc[] = [
    { _id: 1, name: 'ada', age: 36, admin: true, tags: ['x'], address: { city: 'london' }, team: 'a' },
    { _id: 2, name: 'bob', age: 25, admin: false, tags: [], address: { city: 'paris' }, team: 'a' },
    { _id: 3, name: 'cy', age: 41, admin: false, tags: ['y'], address: { city: 'london' }, team: null },
    { _id: 4, name: 'dee', age: 25, admin: true, tags: [], address: { city: 'rome' }, team: 'b' },
  ];

  beforeAll(async () => {
    store = await makeStore();
    await store.commit(people.map((doc) => ({ collection: col('people'), op: 'put', doc })));
  });
  afterAll(() => store.close());

  it('stores, replaces and deletes documents by id, numeric and string ids alike', async () => {
    const c = col('crud');
    await store.commit([
      { collection: c, op: 'put', doc: { _id: 'a', v: 1 } },
      { collection: c, op: 'put', doc: { _id: 7, v: 2 } },
    ]);
    expect(await store.get(c, 'a')).toEqual({ _id: 'a', v: 1 });
    expect(await store.get(c, 7)).toEqual({ _id: 7, v: 2 });
    await store.commit([{ collection: c, op: 'put', doc: { _id: 'a', v: 3 } }, { collection: c, op: 'delete', id: 7 }]);
    expect(await store.get(c, 'a')).toEqual({ _id: 'a', v: 3 });
    expect(await store.get(c, 7)).toBeNull();
    expect((await store.getMany(c, ['a', 'missing'])).map((d) => d._id)).toEqual(['a']);
  });

  it('reads a whole batch of documents by id in one call, numeric and string ids alike, missing ones left out', async () => {
    const c = col('many');
    const docs: Doc[] = Array.from({ length: 1500 }, (_, i) => ({ _id: i % 2 ? i : `s${i}`, i }));
    await store.commit(docs.map((doc) => ({ collection: c, op: 'put', doc })));
    const wanted = [...docs.map((d) => d._id), 'missing', 100_000];
    const found = await store.getMany(c, wanted);
    expect(found).toHaveLength(1500);
    expect(new Map(found.map((d) => [d._id, d.i]))).toEqual(new Map(docs.map((d) => [d._id, d.i])));
    expect(await store.getMany(c, [])).toEqual([]);
  });

  it('filters by equality, null, booleans and nested fields', async () => {
    const names = async (filter: any) => (await store.find(col('people'), filter, { sort: [['_id', 1]] })).map((d) => d.name);
    expect(await names({ age: 25 })).toEqual(['bob', 'dee']);
    expect(await names({ admin: true })).toEqual(['ada', 'dee']);
    expect(await names({ team: null })).toEqual(['cy']);
    expect(await names({ 'address.city': 'london' })).toEqual(['ada', 'cy']);
    expect(await names({ age: 25, admin: false })).toEqual(['bob']);
  });

  it('filters with $in, $nin, $ne, ranges, $exists and $or', async () => {
    const names = async (filter: any) => (await store.find(col('people'), filter, { sort: [['_id', 1]] })).map((d) => d.name);
    expect(await names({ name: { $in: ['ada', 'cy', 'zed'] } })).toEqual(['ada', 'cy']);
    expect(await names({ name: { $in: [] } })).toEqual([]);
    expect(await names({ name: { $nin: ['ada', 'cy'] } })).toEqual(['bob', 'dee']);
    expect(await names({ team: { $ne: 'a' } })).toEqual(['cy', 'dee']);
    expect(await names({ age: { $gt: 25, $lte: 41 } })).toEqual(['ada', 'cy']);
    expect(await names({ age: { $gte: 36 } })).toEqual(['ada', 'cy']);
    expect(await names({ age: { $lt: 30 } })).toEqual(['bob', 'dee']);
    expect(await names({ missing: { $exists: false } })).toEqual(['ada', 'bob', 'cy', 'dee']);
    expect(await names({ 'address.city': { $exists: true } })).toHaveLength(4);
    expect(await names({ $or: [{ name: 'ada' }, { age: 41 }] })).toEqual(['ada', 'cy']);
    expect(await names({ _id: { $in: [2, 4] } })).toEqual(['bob', 'dee']);
  });

  it('sorts on several keys, skips, limits and counts', async () => {
    const page = await store.find(col('people'), {}, { sort: [['age', 1], ['name', -1]], skip: 1, limit: 2 });
    expect(page.map((d) => d.name)).toEqual(['bob', 'ada']);
    expect(await store.count(col('people'), { age: 25 })).toBe(2);
    expect(await store.count(col('people'), {})).toBe(4);
    expect(await store.count(col('nothing'), {})).toBe(0);
  });

  it('serves a sort from an index with descending terms, same answers as without it', async () => {
    const c = col('sorted');
    await store.ensureIndexes(c, [['team', '-age', 'name']]);
    await store.commit(people.map((doc) => ({ collection: c, op: 'put', doc })));
    const page = await store.find(c, { team: 'a' }, { sort: [['age', -1], ['name', 1]], limit: 5 });
    expect(page.map((d) => d.name)).toEqual(['ada', 'bob']);
    const all = await store.find(c, {}, { sort: [['age', -1], ['name', 1]] });
    expect(all.map((d) => d.name)).toEqual(['cy', 'ada', 'bob', 'dee']);
  });

  it('moves a checkpoint together with the documents', async () => {
    const name = `contract:${run}`;
    expect(await store.getCheckpoint(name)).toBeNull();
    await store.commit([{ collection: col('cp'), op: 'put', doc: { _id: 1 } }], { name, position: 12345678901234n });
    expect(await store.getCheckpoint(name)).toBe(12345678901234n);
    await store.deleteCheckpoint(name);
    expect(await store.getCheckpoint(name)).toBeNull();
  });

  it('puts a rebuilt collection in place of the live one, indexes and all', async () => {
    const live = col('live');
    const rebuilt = col('rebuilt');
    await store.ensureIndexes(live, [['k']]);
    await store.commit([{ collection: live, op: 'put', doc: { _id: 1, k: 'old' } }]);
    await store.ensureIndexes(rebuilt, [['k']]);
    await store.commit([{ collection: rebuilt, op: 'put', doc: { _id: 2, k: 'new' } }]);
    await store.replaceCollection(rebuilt, live);
    expect(await store.find(live, { k: 'new' })).toEqual([{ _id: 2, k: 'new' }]);
    expect(await store.get(live, 1)).toBeNull();
    expect(await store.count(rebuilt, {})).toBe(0);
    // A second rebuild must be able to index its new collection again.
    await store.ensureIndexes(rebuilt, [['k']]);
    await store.commit([{ collection: rebuilt, op: 'put', doc: { _id: 3, k: 'newer' } }]);
    await store.replaceCollection(rebuilt, live);
    expect((await store.find(live, {})).map((d) => d._id)).toEqual([3]);
    expect(await store.listCollections()).toContain(live);
    await store.dropCollection(live);
    expect(await store.count(live, {})).toBe(0);
  });
}
