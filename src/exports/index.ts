import type { Services } from '../container';
import { BatchExportWorker } from './worker';

/** The worker as the service runs it, configured from the environment; null when BATCH_EXPORT_WORKER=off. */
export function startBatchExportWorker(services: Services): BatchExportWorker | null {
  const c = services.config;
  if (c.BATCH_EXPORT_WORKER === 'off') return null;
  return new BatchExportWorker(services, {
    tickMs: c.BATCH_EXPORT_TICK_MS,
    retryBackoffMs: c.BATCH_EXPORT_RETRY_BACKOFF_MS,
    maxAttempts: c.BATCH_EXPORT_MAX_ATTEMPTS,
  }).start();
}

export { BatchExportWorker };
