import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Checkpoint, Doc, DocumentChange, DocumentId, Filter, FindOptions, ReadStore } from './port';

const TABLE_PREFIX = 'rm_';
/** 64 MiB of 4 KiB pages. */
const WAL_CHECKPOINT_PAGES = 16384;

/**
 * The default read store: documents as JSON in SQLite tables (one per collection), queried through
 * json_extract. Indexes are expression indexes on the same json_extract terms the queries use, so filters and
 * sorts on indexed fields never scan a whole collection.
 */
export class EmbeddedReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly known = new Set<string>();

  constructor(dataDir: string, file = 'readmodels.db') {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(path.join(dataDir, file));
    this.db.pragma('journal_mode = WAL');
    // Read models can always be rebuilt from the log, so they need no fsync per commit.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 10000');
    // Catching up writes many pages per batch, and checkpointing them into the database is what costs: a larger
    // WAL lets a page written by several batches in a row be copied once. (SQLite's default is 1000 pages.)
    this.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    this.db.pragma(`journal_size_limit = ${WAL_CHECKPOINT_PAGES * 4096}`);
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL) WITHOUT ROWID');
  }

  private table(collection: string) {
    if (!/^[A-Za-z0-9_]+$/.test(collection)) throw new Error(`invalid collection name ${collection}`);
    const name = TABLE_PREFIX + collection;
    if (!this.known.has(name)) {
      // A rowid table keeps documents in insertion order, so a batch of new documents with random ids (uuids)
      // appends to the table instead of touching a page per document; the id's own index stays small.
      // (Tables made by earlier releases are WITHOUT ROWID; both work the same.)
      this.db.exec(`CREATE TABLE IF NOT EXISTS "${name}" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      this.known.add(name);
    }
    return name;
  }

  private prepare(sql: string) {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  async get<T extends Doc>(collection: string, id: DocumentId): Promise<T | null> {
    const row = this.prepare(`SELECT doc FROM "${this.table(collection)}" WHERE id = ?`).get(String(id)) as { doc: string } | undefined;
    return row ? JSON.parse(row.doc) : null;
  }

  async getMany<T extends Doc>(collection: string, ids: DocumentId[]): Promise<T[]> {
    if (ids.length === 0) return [];
    // One statement for any number of ids: they travel as one JSON array.
    const rows = this.prepare(`SELECT doc FROM "${this.table(collection)}" WHERE id IN (SELECT value FROM json_each(?))`).all(
      JSON.stringify(ids.map(String)),
    ) as { doc: string }[];
    return rows.map((row) => JSON.parse(row.doc));
  }

  async find<T extends Doc>(collection: string, filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const params: unknown[] = [];
    const where = compileFilter(filter, params);
    const order = (options.sort ?? []).map(([field, dir]) => `${fieldExpr(field)} ${dir === -1 ? 'DESC' : 'ASC'}`);
    const sql =
      `SELECT doc FROM "${this.table(collection)}" WHERE ${where}` +
      (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
      ` LIMIT ? OFFSET ?`;
    const rows = this.prepare(sql).all(...params, options.limit ?? -1, options.skip ?? 0) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc));
  }

  async count(collection: string, filter: Filter): Promise<number> {
    const params: unknown[] = [];
    const where = compileFilter(filter, params);
    const row = this.prepare(`SELECT COUNT(*) AS n FROM "${this.table(collection)}" WHERE ${where}`).get(...params) as { n: number };
    return row.n;
  }

  async ensureIndexes(collection: string, indexes: string[][]) {
    const table = this.table(collection);
    for (const fields of indexes) {
      const name = `ix_${table}_${fields.join('_').replace(/[^A-Za-z0-9_]/g, '_')}`;
      const terms = fields.map((f) => (f.startsWith('-') ? `${fieldExpr(f.slice(1))} DESC` : fieldExpr(f)));
      this.db.exec(`CREATE INDEX IF NOT EXISTS "${name}" ON "${table}" (${terms.join(', ')})`);
    }
  }

  async commit(changes: DocumentChange[], checkpoint?: Checkpoint) {
    const tables = new Map<string, string>();
    for (const change of changes) if (!tables.has(change.collection)) tables.set(change.collection, this.table(change.collection));
    this.db.transaction(() => {
      for (const change of changes) {
        const table = tables.get(change.collection)!;
        if (change.op === 'put') {
          this.prepare(`INSERT INTO "${table}" (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(
            String(change.doc._id),
            JSON.stringify(change.doc),
          );
        } else {
          this.prepare(`DELETE FROM "${table}" WHERE id = ?`).run(String(change.id));
        }
      }
      if (checkpoint) {
        this.prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position').run(
          checkpoint.name,
          checkpoint.position.toString(),
        );
      }
    })();
  }

  async getCheckpoint(name: string) {
    const row = this.prepare('SELECT position FROM checkpoints WHERE name = ?').get(name) as { position: string } | undefined;
    return row ? BigInt(row.position) : null;
  }

  async deleteCheckpoint(name: string) {
    this.prepare('DELETE FROM checkpoints WHERE name = ?').run(name);
  }

  async listCollections() {
    const rows = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${TABLE_PREFIX}%'`).all() as { name: string }[];
    return rows.map((r) => r.name.slice(TABLE_PREFIX.length));
  }

  async replaceCollection(from: string, to: string) {
    const source = this.table(from);
    const target = TABLE_PREFIX + to;
    this.db.transaction(() => {
      const indexes = this.db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
        .all(source) as { name: string; sql: string }[];
      this.db.exec(`DROP TABLE IF EXISTS "${target}"`);
      for (const index of indexes) this.db.exec(`DROP INDEX "${index.name}"`);
      this.db.exec(`ALTER TABLE "${source}" RENAME TO "${target}"`);
      // Index names carry their table's name: re-create them under the new one.
      for (const index of indexes) {
        this.db.exec(index.sql.split(source).join(target));
      }
    })();
    this.statements.clear();
    this.known.delete(source);
    this.known.add(target);
  }

  async dropCollection(name: string) {
    this.db.exec(`DROP TABLE IF EXISTS "${TABLE_PREFIX + name}"`);
    this.statements.clear();
    this.known.delete(TABLE_PREFIX + name);
  }

  async close() {
    this.db.close();
  }
}

function fieldExpr(field: string) {
  if (field === '_id') return 'id';
  if (!/^[A-Za-z0-9_$.]+$/.test(field)) throw new Error(`invalid field ${field}`);
  return `json_extract(doc, '$.${field}')`;
}

/** SQLite's json_extract gives 1/0 for JSON booleans. */
function sqlValue(value: unknown) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

function compileFilter(filter: Filter, params: unknown[]): string {
  const clauses: string[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$or') {
      const alternatives = (condition as Filter[]).map((f) => `(${compileFilter(f, params)})`);
      clauses.push(alternatives.length ? `(${alternatives.join(' OR ')})` : '0');
      continue;
    }
    const expr = fieldExpr(field);
    const idField = field === '_id';
    const bind = (v: unknown) => {
      params.push(idField ? String(v) : sqlValue(v));
      return '?';
    };
    if (condition !== null && typeof condition === 'object' && !Array.isArray(condition) && Object.keys(condition).some((k) => k.startsWith('$'))) {
      for (const [op, value] of Object.entries(condition as Record<string, unknown>)) {
        switch (op) {
          case '$in':
          case '$nin': {
            const list = value as unknown[];
            if (list.length === 0) clauses.push(op === '$in' ? '0' : '1');
            else clauses.push(`${expr} ${op === '$in' ? 'IN' : 'NOT IN'} (${list.map(bind).join(',')})`);
            break;
          }
          case '$ne':
            clauses.push(value === null ? `${expr} IS NOT NULL` : `(${expr} IS NULL OR ${expr} != ${bind(value)})`);
            break;
          case '$gt':
            clauses.push(`${expr} > ${bind(value)}`);
            break;
          case '$gte':
            clauses.push(`${expr} >= ${bind(value)}`);
            break;
          case '$lt':
            clauses.push(`${expr} < ${bind(value)}`);
            break;
          case '$lte':
            clauses.push(`${expr} <= ${bind(value)}`);
            break;
          case '$exists':
            clauses.push(value ? `json_type(doc, '$.${field}') IS NOT NULL` : `json_type(doc, '$.${field}') IS NULL`);
            break;
          default:
            throw new Error(`unsupported operator ${op}`);
        }
      }
    } else if (condition === null) {
      clauses.push(`${expr} IS NULL`);
    } else {
      clauses.push(`${expr} = ${bind(condition)}`);
    }
  }
  return clauses.length ? clauses.join(' AND ') : '1';
}
