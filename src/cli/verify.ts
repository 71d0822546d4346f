import 'reflect-metadata';
import { loadConfig } from '../config';
import { createContainer, servicesOf } from '../container';
import { verifyInstallation } from '../history/verification';
import { Logger } from '../logger';

/**
 * npm run verify: replays the whole log. Exit 0 when every stream folds and every read model equals a fresh
 * rebuild; 1 with the differences otherwise (then `npm run projections:rebuild -- <name>` repairs a read model).
 * Ingestion read models follow the log asynchronously: run it when ingestion is idle, or expect their lag.
 */
async function main() {
  const services = servicesOf(createContainer(loadConfig(), new Logger('warn')));
  const report = await verifyInstallation(services, (message) => process.stderr.write(`\r${message.padEnd(70)}`));
  process.stderr.write('\n');
  for (const p of report.foldProblems) process.stdout.write(`stream ${p.stream} does not fold at revision ${p.revision} (${p.type}): ${p.problem}\n`);
  for (const p of report.readModelProblems) {
    process.stdout.write(`read model ${p.projection}/${p.collection}: ${p.differences.length} document(s) differ from a rebuild\n`);
    for (const d of p.differences.slice(0, 20)) {
      process.stdout.write(`  ${String(d.id)}\n    live:    ${JSON.stringify(d.live)}\n    rebuilt: ${JSON.stringify(d.rebuilt)}\n`);
    }
  }
  const ok = report.foldProblems.length === 0 && report.readModelProblems.length === 0;
  process.stdout.write(`${ok ? 'OK' : 'PROBLEMS FOUND'}: ${report.events} events in ${report.streams} aggregate streams checked\n`);
  await services.eventStore.close();
  await services.readStore.close();
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
