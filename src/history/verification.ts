import { allProjections } from '../../projections';
import { upcast } from '../commands/upcasting';
import type { Services } from '../container';
import { categoryOf } from '../eventstore/port';
import { diffCollections, discardRebuild, rebuildCollection, rebuildProjection } from '../projections/rebuild';
import { aggregatesByCategory } from './aggregates';

export type FoldProblem = { stream: string; revision: string; type: string; problem: string };
export type ReadModelProblem = { projection: string; collection: string; differences: Awaited<ReturnType<typeof diffCollections>> };
export type VerificationReport = { events: number; streams: number; foldProblems: FoldProblem[]; readModelProblems: ReadModelProblem[] };

/**
 * Walks the whole log and checks that every aggregate stream folds (each event understood by its aggregate,
 * after upcasting), then that every read model equals a fresh rebuild from position zero.
 */
export async function verifyInstallation(services: Services, onProgress?: (message: string) => void): Promise<VerificationReport> {
  const states = new Map<string, unknown>();
  const foldProblems: FoldProblem[] = [];
  let events = 0;
  const categories = Object.keys(aggregatesByCategory);
  for (let after = 0n; ; ) {
    const page = await services.eventStore.readAll({ after, maxCount: 2000, filter: { categories } });
    if (page.length === 0) break;
    for (const stored of page) {
      events += 1;
      if (foldProblems.some((p) => p.stream === stored.streamId)) continue;
      const decider = aggregatesByCategory[categoryOf(stored.streamId)];
      const event = upcast(stored);
      const state = states.has(stored.streamId) ? states.get(stored.streamId) : decider.initialState();
      try {
        const next = decider.evolve(state, { type: event.type, data: event.data, metadata: event.metadata });
        if (next === undefined) throw new Error(`the ${categoryOf(stored.streamId)} aggregate does not know events of type ${event.type}`);
        states.set(stored.streamId, next);
      } catch (error) {
        foldProblems.push({ stream: stored.streamId, revision: stored.revision.toString(), type: stored.type, problem: (error as Error).message });
      }
    }
    after = page[page.length - 1].position;
    onProgress?.(`folded ${events} events of ${states.size} streams`);
  }
  const readModelProblems: ReadModelProblem[] = [];
  for (const projection of allProjections) {
    onProgress?.(`rebuilding ${projection.name} beside the live read model`);
    await rebuildProjection(services, projection, { swap: false, fresh: true });
    for (const collection of Object.keys(projection.collections)) {
      const differences = await diffCollections(services, collection, rebuildCollection(collection));
      if (differences.length) readModelProblems.push({ projection: projection.name, collection, differences });
    }
    await discardRebuild(services, projection);
  }
  return { events, streams: states.size, foldProblems, readModelProblems };
}
