import 'reflect-metadata';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore } from '../eventstore/embedded';
import { INGESTED_EVENT_TYPE, ingestionStream } from '../../domain/ingestion/ingested-event';
import { printBenchReport } from './bench-report';
import { freePort } from './free-port';
import { LoadResult, runLoad } from './load';

/**
 * npm run bench:ingest: the server in its own process, a second process sending 1000-event batches (~500 bytes
 * an event) to /batch/ for BENCH_SECONDS, closed loop. Baseline, same machine, same run: parsing the same
 * batches and appending them to the embedded event store directly (no HTTP, no validation, no projections).
 */
const PROJECT_KEY = 'phc_benchprojectkey0000000000000000000000000000';
const PERSONAL_KEY = 'phx_benchpersonalkey000000000000000000000000000';
const BATCH = 1000;
const CONCURRENCY = 4;

/** A batch body as a template split at each uuid, so a fresh batch costs one join (cheap for the generator). */
function batchTemplate(): string[] {
  const parts: string[] = [];
  let current = '{"api_key":"' + PROJECT_KEY + '","sent_at":"' + new Date().toISOString() + '","batch":[';
  for (let i = 0; i < BATCH; i++) {
    const event = {
      event: i % 10 === 0 ? 'signed_up' : '$pageview',
      distinct_id: `user-${i % 97}`,
      timestamp: new Date().toISOString(),
      properties: {
        $current_url: `https://shop.example.com/products/${i}?utm_source=newsletter&utm_medium=email`,
        $browser: 'Chrome',
        $browser_version: 120,
        $os: 'Mac OS X',
        $screen_width: 1920,
        $lib: 'posthog-node',
        $lib_version: '5.11.2',
        plan: 'pro',
        cart_value: 129.5,
        $set: i % 50 === 0 ? { plan: 'pro', seen: i } : undefined,
        note: 'x'.repeat(120),
      },
    };
    const json = JSON.stringify(event);
    current += (i ? ',' : '') + json.slice(0, -1) + ',"uuid":"';
    parts.push(current);
    current = '"}';
  }
  parts.push(current + ']}');
  return parts;
}

/** Unique uuids per batch: a per-process prefix, the batch number and the event's index. */
function makeBatch(parts: string[], prefix: string, n: number): string {
  const batch = (n >>> 0).toString(16).padStart(8, '0');
  let out = parts[0];
  for (let i = 1; i < parts.length; i++) out += `${batch}-${prefix.slice(0, 4)}-7${prefix.slice(4, 7)}-8${prefix.slice(7, 10)}-${(i - 1).toString(16).padStart(12, '0')}` + parts[i];
  return out;
}

const rssMb = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
};

async function baseline(seconds: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'chronicle-bench-ingest-baseline-'));
  const store = new EmbeddedEventStore(dir);
  const parts = batchTemplate();
  const prefix = randomBytes(8).toString('hex');
  let events = 0;
  let busy = 0;
  const deadline = Date.now() + seconds * 1000;
  for (let n = 0; Date.now() < deadline; n++) {
    const body = makeBatch(parts, prefix, n);
    const t0 = process.hrtime.bigint();
    const parsed = JSON.parse(body);
    await store.appendToStream(
      ingestionStream(1),
      parsed.batch.map((e: any) => ({ id: e.uuid, type: INGESTED_EVENT_TYPE, data: e })),
    );
    busy += Number(process.hrtime.bigint() - t0) / 1e9;
    events += parsed.batch.length;
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return events / busy;
}

function runLoadProcess(spec: object): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [__filename, 'load', JSON.stringify(spec)], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const startServer = (dataDir: string, port: number) =>
  spawn(process.execPath, [path.join(__dirname, '..', 'main.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', BOOTSTRAP_PROJECT_API_KEY: PROJECT_KEY, BOOTSTRAP_PERSONAL_API_KEY: PERSONAL_KEY },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

const stopServer = async (server: ChildProcess) => {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
};

async function main() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 20);
  const baselineSeconds = Math.max(2, seconds / 4);
  const base = await baseline(baselineSeconds);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'chronicle-bench-ingest-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: ChildProcess = startServer(dataDir, port);
  try {
    if (!(await waitFor(async () => (await fetch(`${url}/_readyz`)).status === 200, 30_000))) throw new Error('server did not start');
    const headers = { Authorization: `Bearer ${PERSONAL_KEY}` };
    const me = (await (await fetch(`${url}/api/users/@me/`, { headers })).json()) as any;
    const pid = server.pid!;
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb(pid, 'VmRSS')), 500);
    const load = await runLoadProcess({ url: `${url}/batch/`, seconds, concurrency: CONCURRENCY });
    clearInterval(sampler);
    const acked = (load.requests - load.errors) * BATCH;
    const eventsPerSecond = acked / load.seconds;
    const peak = rssMb(pid, 'VmHWM');

    // Events every ingestion read model has processed: the events read model (the heaviest, what GET /events/ serves)
    // and usage (which counts them), the lower of the two.
    const projected = async () => {
      const events = ((await (await fetch(`${url}/api/projects/${me.team.id}/events/?limit=1`, { headers })).json()) as any).count as number;
      const usage = ((await (await fetch(`${url}/api/projects/${me.team.id}/usage/`, { headers })).json()) as any).results.reduce(
        (n: number, d: any) => n + d.billable_events + d.historical_events,
        0,
      ) as number;
      if (typeof events !== 'number' || typeof usage !== 'number') throw new Error('no answer yet');
      return Math.min(events, usage);
    };
    const atStop = await projected().catch(() => NaN);
    const t0 = Date.now();
    const caughtUp = await waitFor(async () => (await projected()) >= acked, Math.max(10_000, seconds * 2000));
    const catchUpSeconds = (Date.now() - t0) / 1000;
    const afterWait = await projected().catch(() => NaN);
    const lagRate = (afterWait - atStop) / catchUpSeconds;

    // After a big historical import: the same log, no read models. Restart the server on it and time how long the
    // read models take to project every acknowledged event, with nothing else running.
    await stopServer(server);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(dataDir, `readmodels.db${suffix}`), { force: true });
    const r0 = Date.now();
    server = startServer(dataDir, port);
    const rebuilt = await waitFor(async () => (await projected()) >= acked, Math.max(30_000, seconds * 4000));
    const rebuildSeconds = (Date.now() - r0) / 1000;
    const projectionRate = rebuilt ? acked / rebuildSeconds : (await projected().catch(() => 0)) / rebuildSeconds;

    const q = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] ?? NaN;
    const ratio = eventsPerSecond / base;
    const rows: [string, string][] = [
      ['duration', `${load.seconds.toFixed(1)} s, ${CONCURRENCY} clients, ${BATCH}-event batches`],
      ['acknowledged events', `${acked}${load.errors ? ` (${load.errors} failed requests)` : ''}`],
      ['sustained events/s', eventsPerSecond.toFixed(0)],
      ['baseline events/s', `${base.toFixed(0)} (parse + embedded append, no HTTP)`],
      ['ratio', ratio.toFixed(2)],
      ['request latency p50 / p99', `${load.p50_ms.toFixed(1)} / ${load.p99_ms.toFixed(1)} ms`],
      ['server RSS at 25% / 50% / end, peak', `${q(0.25).toFixed(0)} / ${q(0.5).toFixed(0)} / ${q(1).toFixed(0)} MB, ${peak.toFixed(0)} MB`],
      ['events projected when load stopped', `${atStop} of ${acked} (acknowledgements go first)`],
      [
        'read models after the load',
        caughtUp
          ? `caught up ${catchUpSeconds.toFixed(1)} s after it stopped`
          : `${afterWait} of ${acked} after ${catchUpSeconds.toFixed(0)} s (catching up at ${lagRate.toFixed(0)} events/s)`,
      ],
      [
        'read models from an empty store',
        `${rebuilt ? acked : 'not all'} events in ${rebuildSeconds.toFixed(1)} s (restart included): ${projectionRate.toFixed(0)} events/s`,
      ],
    ];
    printBenchReport('ingest benchmark', rows, {
      bench: 'ingest',
      value: eventsPerSecond,
      unit: 'events/s',
      baseline: base,
      ratio,
      p50_ms: Number(load.p50_ms.toFixed(1)),
      p99_ms: Number(load.p99_ms.toFixed(1)),
      rss_mb: Math.round(peak),
      projection_events_per_s: Math.round(projectionRate),
      projection_lag_at_stop: Number.isNaN(atStop) ? -1 : acked - atStop,
    });
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'load') {
  const spec = JSON.parse(process.argv[3]) as { url: string; seconds: number; concurrency: number };
  const parts = batchTemplate();
  const prefix = randomBytes(8).toString('hex');
  runLoad({ ...spec, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: (i) => makeBatch(parts, prefix, i) }).then((r) =>
    process.stdout.write(JSON.stringify(r) + '\n'),
  );
} else {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
