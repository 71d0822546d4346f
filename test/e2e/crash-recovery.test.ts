import { rmSync } from 'node:fs';
import { ADMIN_KEY, PROJECT_KEY, tempDataDir } from '../support/chronicle';
import { startServerProcess } from '../support/server-process';

const env = (dataDir: string) => ({ DATA_DIR: dataDir, BOOTSTRAP_PERSONAL_API_KEY: ADMIN_KEY, BOOTSTRAP_PROJECT_API_KEY: PROJECT_KEY });
const auth = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };

describe('a real server process', () => {
  const dataDir = tempDataDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loses no acknowledged write to kill -9, and its read models catch up after restart', async () => {
    const server = await startServerProcess(env(dataDir));
    const me = (await (await fetch(`${server.url}/api/users/@me/`, { headers: auth })).json()) as any;
    const projectId = me.team.id;
    const acknowledged: number[] = [];
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop && i < 200; i++) {
        try {
          const res = await fetch(`${server.url}/api/projects/${projectId}/dashboards/`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ name: `w${w}-${i}` }),
          });
          if (res.status === 201) acknowledged.push(((await res.json()) as any).id);
        } catch {
          return; // the server died under us: that request was never acknowledged
        }
      }
    });
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await server.exited;

    const again = await startServerProcess(env(dataDir));
    try {
      const res = await fetch(`${again.url}/api/projects/${projectId}/dashboards/?limit=1000`, { headers: auth });
      const body = (await res.json()) as any;
      const ids = new Set(body.results.map((d: { id: number }) => d.id));
      for (const id of acknowledged) expect(ids.has(id)).toBe(true);
      expect(ids.size).toBe(body.results.length);
      // Bootstrap ran once: still one organization.
      const orgs = (await (await fetch(`${again.url}/api/organizations/`, { headers: auth })).json()) as any;
      expect(orgs.count).toBe(1);
    } finally {
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }
  }, 60_000);
});
