import 'reflect-metadata';
import { allProjections } from '../../projections';
import { loadConfig } from '../config';
import { createContainer, servicesOf } from '../container';
import { Logger } from '../logger';
import { rebuildProjection } from '../projections/rebuild';
import { progressBar } from './progress';

/**
 * npm run projections:rebuild -- [name …] [--fresh]
 * Rebuilds the named read models (all by default) from position zero beside the live ones and swaps them in.
 */
async function main() {
  const args = process.argv.slice(2);
  const fresh = args.includes('--fresh');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !allProjections.some((p) => p.name === n));
  if (unknown.length) {
    process.stderr.write(`unknown read model(s): ${unknown.join(', ')}\nknown: ${allProjections.map((p) => p.name).join(', ')}\n`);
    process.exit(2);
  }
  const selected = names.length ? allProjections.filter((p) => names.includes(p.name)) : allProjections;
  const config = loadConfig();
  const services = servicesOf(createContainer(config, new Logger('warn')));
  let total = 0;
  const started = Date.now();
  for (const projection of selected) {
    const result = await rebuildProjection(services, projection, {
      swap: true,
      fresh,
      onProgress: (p) => process.stderr.write(progressBar(p.projection, p.position, p.head, p.events, p.elapsedMs)),
    });
    total += result.events;
    process.stderr.write(`\n${projection.name}: ${result.events} events in ${(result.elapsedMs / 1000).toFixed(2)} s\n`);
  }
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`rebuilt ${selected.length} read model(s) from ${total} events in ${seconds.toFixed(2)} s (${Math.round(total / Math.max(seconds, 0.001))} events/s)\n`);
  await services.eventStore.close();
  await services.readStore.close();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
