import 'reflect-metadata';
import { startChronicle, closeServer } from './chronicle';
import { loadConfig } from './config';
import { Logger } from './logger';

async function main() {
  const config = loadConfig();
  const logger = new Logger(config.LOG_LEVEL);
  const chronicle = await startChronicle(config, logger);
  if (chronicle.bootstrapped) {
    const b = chronicle.bootstrapped;
    // Printed once, on the first start only: the generated secrets are stored nowhere in clear.
    const lines = [
      'Chronicle bootstrapped a new installation:',
      `  user:                  ${b.email}${b.password ? `  password: ${b.password}` : ''}`,
      `  organization id:       ${b.organizationId}`,
      `  project id:            ${b.projectId}`,
      b.personalApiKey ? `  personal API key:      ${b.personalApiKey}` : null,
      b.projectApiKey ? `  project API key:       ${b.projectApiKey}` : null,
      'Keep these now: they are not shown again.',
    ].filter(Boolean);
    process.stdout.write(lines.join('\n') + '\n');
  }
  const server = chronicle.app.listen(config.PORT, config.HOST, () => {
    logger.info('listening', { host: config.HOST, port: config.PORT, dataDir: config.EVENTSTORE_URL ? undefined : config.DATA_DIR });
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    const force = setTimeout(() => process.exit(1), 9500);
    force.unref();
    await closeServer(server);
    await chronicle.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
