/**
 * Read models are documents in collections, shaped like MongoDB so the MongoDB adapter is a thin mapping.
 * Filters use a small subset of MongoDB's query language; both adapters implement exactly that subset.
 */
export type DocumentId = string | number;
export type Doc = { _id: DocumentId; [field: string]: any };

export type FieldCondition =
  | unknown
  | { $in?: unknown[]; $nin?: unknown[]; $ne?: unknown; $gt?: unknown; $gte?: unknown; $lt?: unknown; $lte?: unknown; $exists?: boolean };

export type Filter = { [field: string]: FieldCondition } & { $or?: Filter[] };

export type SortSpec = [field: string, direction: 1 | -1][];

export type FindOptions = { sort?: SortSpec; skip?: number; limit?: number; projection?: string[] };

export type DocumentChange =
  | { collection: string; op: 'put'; doc: Doc }
  | { collection: string; op: 'delete'; id: DocumentId };

export type Checkpoint = { name: string; position: bigint };

export interface ReadStore {
  get<T extends Doc = Doc>(collection: string, id: DocumentId): Promise<T | null>;
  getMany<T extends Doc = Doc>(collection: string, ids: DocumentId[]): Promise<T[]>;
  find<T extends Doc = Doc>(collection: string, filter: Filter, options?: FindOptions): Promise<T[]>;
  count(collection: string, filter: Filter): Promise<number>;
  /**
   * Each index is a list of (possibly dotted) field paths, `-field` for descending: an index whose terms match a
   * sort (directions included) serves a sorted page without sorting the whole selection.
   */
  ensureIndexes(collection: string, indexes: string[][]): Promise<void>;
  /** Applies the changes and moves the checkpoint together: atomically where the engine allows it. */
  commit(changes: DocumentChange[], checkpoint?: Checkpoint): Promise<void>;
  getCheckpoint(name: string): Promise<bigint | null>;
  deleteCheckpoint(name: string): Promise<void>;
  listCollections(): Promise<string[]>;
  /** Puts `from` in the place of `to` (dropping the old `to`) in one step: how rebuilt read models go live. */
  replaceCollection(from: string, to: string): Promise<void>;
  dropCollection(name: string): Promise<void>;
  close(): Promise<void>;
}
