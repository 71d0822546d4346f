import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../src/eventstore/port';
import { ingestionStream } from '../../domain/ingestion/ingested-event';

/** Polls until `check` returns a value (projections are asynchronous); fails after a bounded wait. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function makeEvent(overrides: Record<string, unknown> = {}, padding = 0) {
  return {
    event: '$pageview',
    distinct_id: 'user-1',
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    properties: { $current_url: 'https://example.com/', ...(padding ? { pad: 'x'.repeat(padding) } : {}) },
    ...overrides,
  };
}

/** The uuids stored in a project's ingestion stream, in log order (duplicates included, if any). */
export async function storedUuids(eventStore: EventStore, projectId: number): Promise<string[]> {
  try {
    const events = await eventStore.readStream(ingestionStream(projectId));
    return events.map((e) => e.data.uuid);
  } catch {
    return [];
  }
}
