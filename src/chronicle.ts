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
  await services.projections.start();
  const bootstrapped = await bootstrap(services);
  const app = createApp(services);
  // Batch exports (issue 6): the run scheduler and delivery worker, started once the read models are running.
  const exportWorker = startBatchExportWorker(services);
  let closed = false;
  return {
    app,
    services,
    bootstrapped,
    async close() {
      if (closed) return;
      closed = true;
      await exportWorker?.stop(); // batch exports (issue 6)
      await services.projections.stop();
      await services.eventStore.close();
      await services.readStore.close();
    },
  };
}

/** Stops taking connections, lets in-flight requests finish, then closes the stores. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
