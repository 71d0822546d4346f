import { Client } from 'pg';
import { Column, ColumnType, EVENTS_SHAPE, RecordShape } from '../records';
import type { Chunk, DestinationWriter } from './writer';

export type PostgresConfig = {
  user: string;
  password: string;
  host: string;
  port: number;
  database: string;
  schema: string;
  table_name: string;
  has_self_signed_cert?: boolean;
};

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

const POSTGRES_TYPES: Record<ColumnType, string> = {
  text: 'text',
  jsonb: 'jsonb',
  timestamptz: 'timestamptz',
  integer: 'integer',
  bigint: 'bigint',
  double: 'double precision',
  boolean: 'boolean',
};
/** Redshift has no jsonb and no unbounded text: JSON goes in as its text. */
const REDSHIFT_TYPES: Record<ColumnType, string> = { ...POSTGRES_TYPES, text: 'varchar(65535)', jsonb: 'varchar(65535)' };

const cell = (type: ColumnType, value: unknown) => (value === undefined || value === null ? null : type === 'jsonb' ? JSON.stringify(value) : value);

/**
 * Postgres: rows keyed by the shape's key (event uuid, person id), inserted with ON CONFLICT, so a chunk written
 * again adds nothing (events) or puts the same newest state again (persons). Redshift has neither ON CONFLICT
 * nor jsonb: there a chunk replaces its own keys (delete + insert in one transaction), just as idempotent.
 * The table's columns follow the shape: the reference's fields, or the export query's SELECT list.
 */
export class PostgresWriter implements DestinationWriter {
  private client: Client | null = null;
  private readonly table: string;
  private readonly columns: Column[];

  constructor(
    private readonly config: PostgresConfig,
    private readonly dialect: 'postgres' | 'redshift' = 'postgres',
    private readonly shape: RecordShape = EVENTS_SHAPE,
  ) {
    this.table = `${ident(config.schema)}.${ident(config.table_name)}`;
    this.columns = shape.keyIsColumn ? shape.columns : [...shape.columns, { name: shape.key, type: 'text' }];
  }

  private async connect(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({
      host: this.config.host,
      port: this.config.port,
      user: this.config.user,
      password: this.config.password,
      database: this.config.database,
      ssl: this.config.has_self_signed_cert ? { rejectUnauthorized: false } : undefined,
      connectionTimeoutMillis: 10_000,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const key = this.shape.key;
      if (this.dialect === 'postgres') {
        const definitions = this.columns.map((c) => `${ident(c.name)} ${POSTGRES_TYPES[c.type]}${c.name === key ? ' PRIMARY KEY' : ''}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.table} (${definitions.join(', ')})`);
        // A table the user made without a key still needs one for ON CONFLICT.
        await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${ident(`${this.config.table_name}_${key}_key`)} ON ${this.table} (${ident(key)})`);
      } else {
        const definitions = this.columns.map((c) => `${ident(c.name)} ${c.name === key ? 'varchar(200) NOT NULL' : REDSHIFT_TYPES[c.type]}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.table} (${definitions.join(', ')})`);
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  /** The rows of a chunk, column by column, with the key column filled from the chunk's keys when it is extra. */
  private valuesOf(chunk: Chunk): unknown[][] {
    const r = chunk.records;
    return this.columns.map((c) =>
      !this.shape.keyIsColumn && c.name === this.shape.key ? (chunk.keys ?? []).slice(0, r.length) : r.map((x) => cell(c.type, x[c.name])),
    );
  }

  async write(chunk: Chunk) {
    if (chunk.records.length === 0) return;
    const client = await this.connect();
    const values = this.valuesOf(chunk);
    const names = this.columns.map((c) => ident(c.name)).join(', ');
    const key = ident(this.shape.key);
    if (this.dialect === 'postgres') {
      const arrays = this.columns.map((c, i) => `$${i + 1}::${POSTGRES_TYPES[c.type]}[]`).join(', ');
      const others = this.columns.filter((c) => c.name !== this.shape.key);
      // A newer state of the same key wins; the same state written again changes nothing.
      const onConflict = this.shape.replace
        ? `DO UPDATE SET ${others.map((c) => `${ident(c.name)} = EXCLUDED.${ident(c.name)}`).join(', ')} WHERE ${this.table}."updated_at" IS NULL OR ${this.table}."updated_at" <= EXCLUDED."updated_at"`
        : 'DO NOTHING';
      await client.query(`INSERT INTO ${this.table} (${names}) SELECT * FROM unnest(${arrays}) ON CONFLICT (${key}) ${onConflict}`, values);
      return;
    }
    const params: unknown[] = [];
    const keys = values[this.columns.findIndex((c) => c.name === this.shape.key)];
    const rows = chunk.records.map((_, row) => {
      const base = params.length;
      params.push(...values.map((column) => column[row]));
      return `(${this.columns.map((__, i) => `$${base + i + 1}`).join(', ')})`;
    });
    await client.query('BEGIN');
    try {
      await client.query(`DELETE FROM ${this.table} WHERE ${key} IN (${keys.map((_, i) => `$${i + 1}`).join(', ')})`, keys);
      await client.query(`INSERT INTO ${this.table} (${names}) VALUES ${rows.join(', ')}`, params);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async close() {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
