import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';

const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export type PostgresCluster = {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** A connected client on the cluster's postgres database (for assertions). */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
};

/**
 * A private PostgreSQL cluster in a temp dir, from the installed binaries (trust auth on loopback only).
 * Used by the export benchmark and the export tests (one per test file, started in beforeAll).
 */
export async function startPostgres(): Promise<PostgresCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chronicle-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(BIN, cmd), ...args], { stdio: 'pipe' }) : execFileSync(path.join(BIN, cmd), args, { stdio: 'pipe' });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  run('initdb', ['-D', data, '-U', user, '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  run('pg_ctl', ['-D', data, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', path.join(dir, 'log'), '-w', 'start']);
  const client = new Client({ host: '127.0.0.1', port, user, database: 'postgres' });
  await client.connect();
  return {
    host: '127.0.0.1',
    port,
    user,
    password: '',
    database: 'postgres',
    query: async (sql, params) => (await client.query(sql, params as any[])).rows,
    async stop() {
      await client.end().catch(() => undefined);
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
