import { checkpointName, type Projection } from '../../projections/projection';
import type { Services } from '../container';

export const REBUILD_SUFFIX = '__rebuild';
export const rebuildCollection = (collection: string) => `${collection}${REBUILD_SUFFIX}`;
const rebuildCheckpoint = (p: Projection) => `${checkpointName(p)}${REBUILD_SUFFIX}`;

export type RebuildProgress = { projection: string; position: bigint; head: bigint; events: number; elapsedMs: number };

/**
 * Fills a projection's collections from position zero beside the live ones (`<name>__rebuild`), then, with
 * `swap`, puts them in place of the live ones. An interrupted rebuild resumes from its own checkpoint; the live
 * read models keep serving meanwhile, and their replay guard makes the swap safe while a server is running.
 */
export async function rebuildProjection(
  services: Pick<Services, 'eventStore' | 'readStore' | 'projections'>,
  projection: Projection,
  options: { swap: boolean; fresh?: boolean; onProgress?: (progress: RebuildProgress) => void },
) {
  const { readStore, eventStore, projections } = services;
  const checkpoint = rebuildCheckpoint(projection);
  // Resume only a rebuild whose collections are all still there; anything else starts from position zero.
  const existing = new Set(await readStore.listCollections());
  const intact = Object.keys(projection.collections).every((c) => existing.has(rebuildCollection(c)));
  if (options.fresh || !intact || (await readStore.getCheckpoint(checkpoint)) === null) {
    for (const collection of Object.keys(projection.collections)) await readStore.dropCollection(rebuildCollection(collection));
    await readStore.deleteCheckpoint(checkpoint);
  }
  for (const [collection, indexes] of Object.entries(projection.collections)) {
    await readStore.ensureIndexes(rebuildCollection(collection), indexes);
  }
  const head = await eventStore.headPosition();
  const started = Date.now();
  let events = 0;
  await projections.run(projection, {
    checkpointName: checkpoint,
    collectionName: rebuildCollection,
    untilCaughtUp: true,
    onProgress: (position, count) => {
      events += count;
      options.onProgress?.({ projection: projection.name, position, head, events, elapsedMs: Date.now() - started });
    },
  });
  if (options.swap) {
    const position = (await readStore.getCheckpoint(checkpoint)) ?? 0n;
    for (const collection of Object.keys(projection.collections)) {
      await readStore.replaceCollection(rebuildCollection(collection), collection);
    }
    await readStore.commit([], { name: checkpointName(projection), position });
    await readStore.deleteCheckpoint(checkpoint);
  }
  return { events, elapsedMs: Date.now() - started };
}

/** Throws away a rebuild made beside the live read model (and its checkpoint, so the next one starts afresh). */
export async function discardRebuild(services: Services, projection: Projection) {
  for (const collection of Object.keys(projection.collections)) await services.readStore.dropCollection(rebuildCollection(collection));
  await services.readStore.deleteCheckpoint(rebuildCheckpoint(projection));
}

/** Documents that differ between a live collection and its rebuilt twin, by id. */
export async function diffCollections(services: Services, live: string, rebuilt: string) {
  const { readStore } = services;
  const a = await readStore.find(live, {});
  const b = await readStore.find(rebuilt, {});
  const byId = new Map(b.map((d) => [`${typeof d._id}:${d._id}`, d]));
  const differences: { id: unknown; live: unknown; rebuilt: unknown }[] = [];
  for (const doc of a) {
    const key = `${typeof doc._id}:${doc._id}`;
    const twin = byId.get(key);
    if (JSON.stringify(doc) !== JSON.stringify(twin)) differences.push({ id: doc._id, live: doc, rebuilt: twin ?? null });
    byId.delete(key);
  }
  for (const doc of byId.values()) differences.push({ id: doc._id, live: null, rebuilt: doc });
  return differences;
}
