import type { Server } from 'node:http';
import type { Config } from './config';
import { createContainer, Services, servicesOf } from './container';
import { bootstrap, BootstrapResult } from './identity/bootstrap';
import { createApp } from './http/app';
import { startBatchExportWorker } from './exports';
import type { Logger } from './logger';

export type Chronicle = {
  app: ReturnType<typeof createApp>;
  services: Services;
  bootstrapped: BootstrapResult | null;
  close(): Promise<void>;
};

/** Wires the stores, starts the projections, bootstraps an empty installation and builds the HTTP app. */
export async function startChronicle(config: Config, logger?: Logger): Promise<Chronicle> {
  const container = createContainer(config, logger);
  const services = servicesOf(container);
  await storesReachable(services);
  await services.projections.start();
  const bootstrapped = await bootstrap(services);
  const app = createApp(services);
  // The batch-export scheduler and delivery worker, started once the read models are running.
  const exportWorker = startBatchExportWorker(services);
  let closed = false;
  return {
    app,
    services,
    bootstrapped,
    async close() {
      if (closed) return;
      closed = true;
      await exportWorker?.stop();
      await services.projections.stop();
      await services.eventStore.close();
      await services.readStore.close();
    },
  };
}

/**
 * EventStoreDB answers "Server Is Not Ready" for a while after its health check passes, and a MongoDB replica set
 * elects its primary after starting: the first start under `docker compose up` waits for both (up to a minute).
 */
async function storesReachable(services: Services, attempts = 60) {
  for (let attempt = 1; ; attempt++) {
    try {
      await services.eventStore.headPosition();
      await services.readStore.getCheckpoint('startup-probe');
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      services.logger.warn('stores not reachable yet; retrying', { attempt, error: String(error) });
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Stops taking connections, lets in-flight requests finish, then closes the stores. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
