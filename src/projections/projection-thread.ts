import 'reflect-metadata';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { allProjections } from '../../projections';
import { createStores } from '../container';
import { EmbeddedEventStore } from '../eventstore/embedded';
import { Logger } from '../logger';
import { ProjectionRunner } from './runner';
import type { FromWorker, ToWorker, WorkerInput } from './worker';

/** The lowest priority: under a load that fills both cores, acknowledgements get the CPU and read models wait. */
const PROJECTION_THREAD_NICE = 19;

/** The body of the projection thread (see worker.ts): a runner over its share of the projections, reporting back. */
async function main() {
  const { config, names } = workerData as WorkerInput;
  // Linux keeps a nice value per thread, and pid 0 is the calling thread: this one yields the CPU to the main
  // thread's acknowledgements whenever both want it, and catches up when there is room.
  try {
    setPriority(0, PROJECTION_THREAD_NICE);
  } catch {
    // not permitted here: run at the normal priority
  }
  const port = parentPort!;
  const logger = new Logger(config.LOG_LEVEL);
  const { eventStore, readStore } = createStores(config);
  const runner = new ProjectionRunner(eventStore, readStore, allProjections.filter((p) => names.includes(p.name)), logger);
  runner.watch((name, position, caughtUp) => port.postMessage({ type: 'progress', name, position: position.toString(), caughtUp } satisfies FromWorker));
  port.on('message', async (message: ToWorker) => {
    if (message.type === 'appended' && eventStore instanceof EmbeddedEventStore) eventStore.notifyAppended();
    if (message.type === 'stop') {
      await runner.stop();
      await eventStore.close();
      await readStore.close();
      port.close();
    }
  });
  await runner.start();
}

main().catch((error) => {
  process.stderr.write(`projection thread: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
