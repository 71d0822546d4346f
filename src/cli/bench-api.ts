import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { allProjections } from '../../projections';
import { startChronicle, closeServer } from '../chronicle';
import { loadConfig } from '../config';
import { Logger } from '../logger';
import { rebuildProjection } from '../projections/rebuild';
import { printBenchReport } from './bench-report';
import type { LoadResult } from './load';

/**
 * npm run bench: the dashboards API (create, retrieve, list: requests/s and p99) against a same-run baseline, a
 * bare express handler returning a stored JSON document, both loaded from a second process. Then the rebuild rate of
 * the read models beside the raw read rate of the event store. BENCH_SECONDS bounds the whole run.
 */
const KEY = 'phx_benchkey000000000000000000000000000000000';
const CONCURRENCY = 16;

function load(spec: object): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(__dirname, 'load.js'), JSON.stringify(spec)], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout));
    });
  });
}

async function main() {
  const total = Number(process.env.BENCH_SECONDS ?? 30);
  const phase = Math.max(1, total / 6);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chronicle-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BOOTSTRAP_PERSONAL_API_KEY: KEY });
  const chronicle = await startChronicle(config, new Logger('silent'));
  const server = chronicle.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
  const me = (await (await fetch(`${base}/api/users/@me/`, { headers })).json()) as any;
  const dashboards = `${base}/api/projects/${me.team.id}/dashboards/`;

  const create = await load({ url: dashboards, method: 'POST', headers, bodyTemplate: '{"name":"bench {i}","description":"load","tags":["bench"]}', seconds: phase, concurrency: CONCURRENCY });
  const first = ((await (await fetch(`${dashboards}?limit=1`, { headers })).json()) as any).results[0];
  const retrieve = await load({ url: `${dashboards}${first.id}/`, method: 'GET', headers, seconds: phase, concurrency: CONCURRENCY });
  const list = await load({ url: `${dashboards}?limit=100`, method: 'GET', headers, seconds: phase, concurrency: CONCURRENCY });

  // Baseline: what this machine serves with express alone, for the same document, through the same generator.
  const document = await (await fetch(`${dashboards}${first.id}/`, { headers })).text();
  const bare = express();
  bare.get('/doc', (_req, res) => {
    res.type('application/json').send(document);
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((r) => bareServer.once('listening', r));
  const baseline = await load({ url: `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/doc`, method: 'GET', seconds: phase, concurrency: CONCURRENCY });
  bareServer.close();

  // Rebuild rate of every read model beside a raw read of the whole log.
  const { services } = chronicle;
  const head = await services.eventStore.headPosition();
  let read = 0;
  const readStarted = Date.now();
  for (let after = 0n; ; ) {
    const page = await services.eventStore.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    read += page.length;
    after = page[page.length - 1].position;
  }
  const rawRate = read / Math.max((Date.now() - readStarted) / 1000, 0.001);
  let rebuilt = 0;
  const rebuildStarted = Date.now();
  for (const projection of allProjections) rebuilt += (await rebuildProjection(services, projection, { swap: false, fresh: true })).events;
  const rebuildRate = rebuilt / Math.max((Date.now() - rebuildStarted) / 1000, 0.001);

  await closeServer(server);
  await chronicle.close();
  rmSync(dataDir, { recursive: true, force: true });

  const fmt = (r: LoadResult) => `${r.rps.toFixed(0)} requests/s, p50 ${r.p50_ms.toFixed(2)} ms, p99 ${r.p99_ms.toFixed(2)} ms, ${r.errors} errors, ratio ${(r.rps / baseline.rps).toFixed(2)}`;
  const round = (n: number) => Math.round(n * 100) / 100;
  printBenchReport(
    'dashboards API benchmark',
    [
      ['dashboards create', fmt(create)],
      ['dashboards retrieve', fmt(retrieve)],
      ['dashboards list (100)', fmt(list)],
      ['baseline: bare express', fmt(baseline)],
      ['read models rebuild', `${rebuildRate.toFixed(0)} events/s over ${rebuilt} events (log head ${head})`],
      ['baseline: raw log read', `${rawRate.toFixed(0)} events/s over ${read} events`],
    ],
    {
      bench: 'api',
      value: retrieve.rps,
      unit: 'requests/s',
      baseline: baseline.rps,
      p99_ms: round(retrieve.p99_ms),
      create_rps: Math.round(create.rps),
      create_p99_ms: round(create.p99_ms),
      create_ratio: round(create.rps / baseline.rps),
      list_rps: Math.round(list.rps),
      list_p99_ms: round(list.p99_ms),
      list_ratio: round(list.rps / baseline.rps),
      rebuild_events_per_s: Math.round(rebuildRate),
      raw_read_events_per_s: Math.round(rawRate),
      rebuild_ratio: round(rebuildRate / rawRate),
    },
  );
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
