import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../src/cli/free-port';

const ROOT = path.resolve(__dirname, '../..');

export type ServerProcess = { child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> };

/** Chronicle as its own OS process (node src/main.ts through the test transpiler), so tests can SIGTERM or kill -9 it. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', path.join(ROOT, 'test/support/ts-register.js'), path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${output}`);
    try {
      const res = await fetch(`${url}/_readyz`);
      if (res.status === 200) return { child, url, output: () => output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready: ${output}`);
}
