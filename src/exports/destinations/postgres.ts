import { Client } from 'pg';
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

/**
 * Postgres: rows keyed by the event uuid, inserted with ON CONFLICT DO NOTHING, so a chunk written again adds
 * nothing. Redshift has neither ON CONFLICT nor jsonb: there a chunk replaces its own uuids (delete + insert
 * in one transaction), which is just as idempotent.
 */
export class PostgresWriter implements DestinationWriter {
  private client: Client | null = null;
  private readonly table: string;

  constructor(
    private readonly config: PostgresConfig,
    private readonly dialect: 'postgres' | 'redshift' = 'postgres',
  ) {
    this.table = `${ident(config.schema)}.${ident(config.table_name)}`;
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
      if (this.dialect === 'postgres') {
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.table} (uuid text PRIMARY KEY, event text NOT NULL, properties jsonb, distinct_id text, team_id integer, "timestamp" timestamptz, created_at timestamptz)`,
        );
        // A table the user made without a key still needs one for ON CONFLICT.
        await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${ident(`${this.config.table_name}_uuid_key`)} ON ${this.table} (uuid)`);
      } else {
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${this.table} (uuid varchar(200) NOT NULL, event varchar(65535) NOT NULL, properties varchar(65535), distinct_id varchar(200), team_id integer, "timestamp" timestamptz, created_at timestamptz)`,
        );
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  async write(chunk: Chunk) {
    if (chunk.records.length === 0) return;
    const client = await this.connect();
    const r = chunk.records;
    if (this.dialect === 'postgres') {
      await client.query(
        `INSERT INTO ${this.table} (uuid, event, properties, distinct_id, team_id, "timestamp", created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[], $5::int[], $6::timestamptz[], $7::timestamptz[])
         ON CONFLICT (uuid) DO NOTHING`,
        [
          r.map((x) => x.uuid),
          r.map((x) => x.event),
          r.map((x) => JSON.stringify(x.properties)),
          r.map((x) => x.distinct_id),
          r.map((x) => x.team_id),
          r.map((x) => x.timestamp),
          r.map((x) => x.created_at),
        ],
      );
      return;
    }
    const params: unknown[] = [];
    const rows = r.map((x) => {
      const base = params.length;
      params.push(x.uuid, x.event, JSON.stringify(x.properties), x.distinct_id, x.team_id, x.timestamp, x.created_at);
      return `(${[1, 2, 3, 4, 5, 6, 7].map((i) => `$${base + i}`).join(', ')})`;
    });
    await client.query('BEGIN');
    try {
      await client.query(`DELETE FROM ${this.table} WHERE uuid IN (${r.map((_, i) => `$${i + 1}`).join(', ')})`, r.map((x) => x.uuid));
      await client.query(`INSERT INTO ${this.table} (uuid, event, properties, distinct_id, team_id, "timestamp", created_at) VALUES ${rows.join(', ')}`, params);
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
