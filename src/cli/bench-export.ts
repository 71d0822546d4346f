import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { batchExportDecider, batchExportStream } from '../../domain/batch-export';
import { printBenchReport } from './bench-report';
import { startPostgres } from './postgres-cluster';
import { startChronicle } from '../chronicle';
import { loadConfig } from '../config';
import type { BatchExportRunDoc } from '../exports/documents';
import { PostgresWriter } from '../exports/destinations/postgres';
import { eventRecord } from '../exports/records';
import { BatchExportWorker } from '../exports/worker';
import { INGESTED_EVENT_TYPE, IngestedEventData, ingestionStream } from '../../domain/ingestion/ingested-event';
import { Logger } from '../logger';

/**
 * npm run bench:export: events/s a batch-export run delivers to PostgreSQL (read from the event store, chunked,
 * written with ON CONFLICT, progress recorded as events), beside a same-run baseline: a plain bulk insert of the
 * same rows, already in memory, with the same statement and chunk size, into the same cluster.
 * Size: BENCH_EXPORT_EVENTS (default 100000); BENCH_SECONDS bounds the export's wait (default 60).
 */
const CHUNK = 5000;
const HOUR_START = Date.parse('2025-03-01T10:00:00Z');

function events(count: number, projectId: number): IngestedEventData[] {
  return Array.from({ length: count }, (_, i) => {
    const distinctId = `user-${i % 997}`;
    return {
      uuid: randomUUID(),
      project_id: projectId,
      event: i % 10 === 0 ? 'signed_up' : '$pageview',
      distinct_id: distinctId,
      properties: {
        distinct_id: distinctId,
        $current_url: `https://shop.example.com/products/${i}?utm_source=newsletter`,
        $browser: 'Chrome',
        $os: 'Mac OS X',
        $screen_width: 1920,
        plan: 'pro',
        cart_value: 129.5,
      },
      timestamp: new Date(HOUR_START + Math.floor((i * 3600_000) / count)).toISOString(),
      received_at: new Date().toISOString(),
      historical_migration: true,
    };
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};

async function main() {
  const count = Number(process.env.BENCH_EXPORT_EVENTS ?? 100_000);
  const seconds = Number(process.env.BENCH_SECONDS ?? 60);
  const pg = await startPostgres();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chronicle-bench-export-'));
  const chronicle = await startChronicle(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', BATCH_EXPORT_WORKER: 'off' }), new Logger('silent'));
  try {
    const services = chronicle.services;
    const projectId = chronicle.bootstrapped!.projectId;
    const organizationId = chronicle.bootstrapped!.organizationId;
    const data = events(count, projectId);
    for (let i = 0; i < data.length; i += 1000) {
      await services.eventStore.appendToStream(ingestionStream(projectId), data.slice(i, i + 1000).map((d) => ({ id: d.uuid, type: INGESTED_EVENT_TYPE, data: d })));
    }
    const connection = { user: pg.user, password: pg.password, host: pg.host, port: pg.port, database: pg.database, schema: 'public' };

    // Baseline: the same rows, in memory, the same INSERT … ON CONFLICT in the same chunks, nothing else.
    const rows = data.map(eventRecord);
    const baselineWriter = new PostgresWriter({ ...connection, table_name: 'baseline_events' });
    const b0 = performance.now();
    for (let i = 0; i < rows.length; i += CHUNK) {
      await baselineWriter.write({ runId: 'baseline', index: i / CHUNK, dataIntervalStart: '', dataIntervalEnd: '', records: rows.slice(i, i + CHUNK) });
    }
    const baselineSeconds = (performance.now() - b0) / 1000;
    await baselineWriter.close();

    const id = randomUUID();
    const metadata = { now: new Date().toISOString() };
    await services.commands.handle(batchExportDecider, batchExportStream(id), {
      type: 'CreateBatchExport',
      data: {
        id, organizationId, teamId: projectId, name: 'bench', model: 'events', interval: 'hour', paused: false, start_at: null, end_at: null, hogql_query: null, schema: null,
        destination: { type: 'Postgres', config: { ...connection, table_name: 'exported_events', has_self_signed_cert: false } },
      },
      metadata,
    });
    await services.commands.handle(batchExportDecider, batchExportStream(id), {
      type: 'BackfillBatchExport',
      data: { backfillId: randomUUID(), startAt: new Date(HOUR_START).toISOString(), endAt: new Date(HOUR_START + 3600_000).toISOString(), hasData: true, earliestEventAt: null },
      metadata,
    });
    const chunkTimes: number[] = [];
    let last = 0;
    const worker = new BatchExportWorker(services, {
      tickMs: 1000,
      retryBackoffMs: 1000,
      maxAttempts: 1,
      chunkSize: CHUNK,
      afterChunkWritten: () => {
        const t = performance.now();
        chunkTimes.push(t - last);
        last = t;
      },
    });
    const e0 = performance.now();
    last = e0;
    let run: BatchExportRunDoc | undefined;
    while (performance.now() - e0 < seconds * 1000) {
      await worker.tick();
      [run] = await services.readStore.find<BatchExportRunDoc>('batch_export_runs', { batch_export_id: id });
      if (run && ['Completed', 'Failed'].includes(run.status)) break;
    }
    const exportSeconds = (performance.now() - e0) / 1000;
    if (!run || run.status !== 'Completed') throw new Error(`the export run did not complete: ${run?.status ?? 'no run'} ${run?.latest_error ?? ''}`);

    const check = new Client({ host: pg.host, port: pg.port, user: pg.user, database: pg.database });
    await check.connect();
    const arrived = Number((await check.query('SELECT count(*) AS n FROM exported_events')).rows[0].n);
    await check.end();

    const value = count / exportSeconds;
    const baseline = count / baselineSeconds;
    const rss = process.memoryUsage().rss / 1024 / 1024;
    const table: [string, string][] = [
      ['events in the interval', String(count)],
      ['rows arrived / records_completed', `${arrived} / ${run.records_completed}`],
      ['export run (event store → Postgres)', `${exportSeconds.toFixed(2)} s, ${value.toFixed(0)} events/s`],
      ['baseline (bulk insert of the same rows)', `${baselineSeconds.toFixed(2)} s, ${baseline.toFixed(0)} events/s`],
      ['ratio', (value / baseline).toFixed(2)],
      [`chunk (${CHUNK} rows) p50 / p99`, `${percentile(chunkTimes, 0.5).toFixed(0)} / ${percentile(chunkTimes, 0.99).toFixed(0)} ms`],
      ['RSS', `${rss.toFixed(0)} MB`],
    ];
    printBenchReport('export benchmark', table, {
      bench: 'export',
      value,
      unit: 'events/s',
      baseline,
      p99_ms: Math.round(percentile(chunkTimes, 0.99)),
      rss_mb: Math.round(rss),
    });
  } finally {
    await chronicle.close();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
