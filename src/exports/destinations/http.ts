import { Chunk, DestinationWriter, PermanentDestinationError } from './writer';

/**
 * HTTP: each chunk is one POST of JSON lines with the token as a bearer, and an Idempotency-Key naming the run
 * and chunk, so a receiver can drop the second copy a resumed run sends.
 */
export class HttpWriter implements DestinationWriter {
  constructor(private readonly config: { url: string; token: string }) {}

  async write(chunk: Chunk) {
    if (chunk.records.length === 0) return;
    const body = chunk.records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const response = await fetch(this.config.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-ndjson',
        Authorization: `Bearer ${this.config.token}`,
        'Idempotency-Key': `${chunk.runId}:${chunk.index}`,
      },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    if (response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      return;
    }
    const text = (await response.text().catch(() => '')).slice(0, 300);
    const message = `HTTP destination answered ${response.status}${text ? `: ${text}` : ''}`;
    // Client errors other than timeouts and throttling will not get better by themselves.
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) throw new PermanentDestinationError(message);
    throw new Error(message);
  }

  async close() {}
}
