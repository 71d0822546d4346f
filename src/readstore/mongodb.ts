import { MongoClient, MongoServerError } from 'mongodb';
import type { AnyBulkWriteOperation, ClientSession, Db } from 'mongodb';
import { Checkpoint, Doc, DocumentChange, DocumentId, Filter, FindOptions, ReadStore } from './port';

const CHECKPOINTS = 'projection_checkpoints';

/** The production read store: the port's filters are MongoDB's own, so this adapter only maps calls. */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  /** Transactions need a replica set; on a standalone server commits fall back to ordered writes. */
  private transactions = true;

  constructor(url: string) {
    this.client = new MongoClient(url);
    this.db = this.client.db();
  }

  async get<T extends Doc>(collection: string, id: DocumentId): Promise<T | null> {
    return (await this.db.collection<Doc>(collection).findOne({ _id: id })) as T | null;
  }

  async getMany<T extends Doc>(collection: string, ids: DocumentId[]): Promise<T[]> {
    if (ids.length === 0) return [];
    return (await this.db.collection<Doc>(collection).find({ _id: { $in: ids } }).toArray()) as T[];
  }

  async find<T extends Doc>(collection: string, filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.db.collection<Doc>(collection).find(filter as any);
    if (options.sort?.length) cursor = cursor.sort(options.sort.map(([f, d]) => [f, d] as [string, 1 | -1]));
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as T[];
  }

  async count(collection: string, filter: Filter) {
    return this.db.collection(collection).countDocuments(filter as any);
  }

  async ensureIndexes(collection: string, indexes: string[][]) {
    for (const fields of indexes) {
      await this.db.collection(collection).createIndex(Object.fromEntries(fields.map((f) => (f.startsWith('-') ? [f.slice(1), -1] : [f, 1]))));
    }
  }

  async commit(changes: DocumentChange[], checkpoint?: Checkpoint) {
    if (this.transactions) {
      const session = this.client.startSession();
      try {
        await session.withTransaction(() => this.write(changes, checkpoint, session));
        return;
      } catch (error) {
        if (!(error instanceof MongoServerError && (error.code === 20 || error.codeName === 'IllegalOperation'))) throw error;
        this.transactions = false;
      } finally {
        await session.endSession();
      }
    }
    await this.write(changes, checkpoint);
  }

  private async write(changes: DocumentChange[], checkpoint: Checkpoint | undefined, session?: ClientSession) {
    const byCollection = new Map<string, AnyBulkWriteOperation<Doc>[]>();
    for (const change of changes) {
      const ops = byCollection.get(change.collection) ?? [];
      ops.push(
        change.op === 'put'
          ? { replaceOne: { filter: { _id: change.doc._id }, replacement: change.doc, upsert: true } }
          : { deleteOne: { filter: { _id: change.id } } },
      );
      byCollection.set(change.collection, ops);
    }
    for (const [collection, ops] of byCollection) await this.db.collection<Doc>(collection).bulkWrite(ops, { session, ordered: true });
    if (checkpoint) {
      await this.db
        .collection<{ _id: string; position: string }>(CHECKPOINTS)
        .updateOne({ _id: checkpoint.name }, { $set: { position: checkpoint.position.toString() } }, { upsert: true, session });
    }
  }

  async getCheckpoint(name: string) {
    const doc = await this.db.collection<{ _id: string; position: string }>(CHECKPOINTS).findOne({ _id: name });
    return doc ? BigInt(doc.position) : null;
  }

  async deleteCheckpoint(name: string) {
    await this.db.collection<{ _id: string }>(CHECKPOINTS).deleteOne({ _id: name });
  }

  async listCollections() {
    const list = await this.db.listCollections({}, { nameOnly: true }).toArray();
    return list.map((c) => c.name).filter((n) => n !== CHECKPOINTS);
  }

  async replaceCollection(from: string, to: string) {
    const exists = (await this.db.listCollections({ name: from }, { nameOnly: true }).toArray()).length > 0;
    if (!exists) {
      await this.dropCollection(to);
      return;
    }
    await this.db.collection(from).rename(to, { dropTarget: true });
  }

  async dropCollection(name: string) {
    await this.db.collection(name).drop().catch((error) => {
      if (!(error instanceof MongoServerError && error.codeName === 'NamespaceNotFound')) throw error;
    });
  }

  async close() {
    await this.client.close();
  }
}
