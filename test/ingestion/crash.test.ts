import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { EmbeddedEventStore } from '../../src/eventstore/embedded';
import { ADMIN_KEY, PROJECT_KEY, tempDataDir } from '../support/chronicle';
import { startServerProcess } from '../support/server-process';
import { eventually, makeEvent, storedUuids } from './helpers';

const env = (dataDir: string) => ({ DATA_DIR: dataDir, BOOTSTRAP_PERSONAL_API_KEY: ADMIN_KEY, BOOTSTRAP_PROJECT_API_KEY: PROJECT_KEY });
const auth = { Authorization: `Bearer ${ADMIN_KEY}` };

describe('ingestion under kill -9', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every event of every acknowledged batch exactly once, and the read models catch up', async () => {
    const server = await startServerProcess(env(dataDir));
    const me = (await (await fetch(`${server.url}/api/users/@me/`, { headers: auth })).json()) as any;
    const projectId: number = me.team.id;
    const acknowledged: { uuid: string }[][] = [];
    let stop = false;
    const send = (url: string, batch: object[]) =>
      fetch(`${url}/batch/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: gzipSync(JSON.stringify({ api_key: PROJECT_KEY, batch })) });
    const senders = Array.from({ length: 3 }, async (_, s) => {
      for (let i = 0; !stop; i++) {
        // Every fifth batch is bigger than one EventStoreDB append, so a crash can fall between its appends.
        const batch = Array.from({ length: i % 5 === 4 ? 2500 : 200 }, () => makeEvent({ distinct_id: `u-${s}-${i % 7}`, uuid: randomUUID() }, 400));
        try {
          const res = await send(server.url, batch);
          if (res.status === 200) acknowledged.push(batch);
        } catch {
          return; // died under us: never acknowledged
        }
      }
    });
    await eventually(async () => acknowledged.length >= 15, 20_000);
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);
    await server.exited;

    const again = await startServerProcess(env(dataDir));
    const store = new EmbeddedEventStore(dataDir);
    try {
      // A client retrying an acknowledged batch (it may not have seen the answer) changes nothing.
      expect((await send(again.url, acknowledged[0])).status).toBe(200);
      const uuids = await storedUuids(store, projectId);
      const counts = new Map<string, number>();
      for (const u of uuids) counts.set(u, (counts.get(u) ?? 0) + 1);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      for (const batch of acknowledged) for (const e of batch) expect(counts.get(e.uuid)).toBe(1);
      await eventually(async () => {
        const page = (await (await fetch(`${again.url}/api/projects/${projectId}/events/?limit=1`, { headers: auth })).json()) as any;
        const usage = (await (await fetch(`${again.url}/api/projects/${projectId}/usage/`, { headers: auth })).json()) as any;
        const billable = usage.results.reduce((n: number, d: any) => n + d.billable_events, 0);
        return page.count === uuids.length && billable === uuids.length;
      }, 20_000);
    } finally {
      await store.close();
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }
  }, 60_000);
});
