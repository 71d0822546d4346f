import { Agent, request } from 'node:http';

/** A closed-loop HTTP load generator: `concurrency` clients, each sending its next request when the last returns. */
export type LoadSpec = {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  /** Bodies are built per request so creates are all distinct. */
  body?: (i: number) => string | Buffer;
  seconds: number;
  concurrency: number;
};

export type LoadResult = { requests: number; errors: number; seconds: number; rps: number; p50_ms: number; p99_ms: number };

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const url = new URL(spec.url);
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const started = process.hrtime.bigint();
  const deadline = Date.now() + spec.seconds * 1000;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const body = spec.body?.(i);
      const t0 = process.hrtime.bigint();
      const req = request(
        { agent, hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: spec.method, headers: { ...spec.headers, ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            if ((res.statusCode ?? 500) >= 400) errors++;
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      if (body) req.write(body);
      req.end();
    });
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (Date.now() < deadline) await one(counter++);
    }),
  );
  agent.destroy();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50_ms: pct(0.5), p99_ms: pct(0.99) };
}

/** Run as a child process: node load.js '<spec json>' → prints the result as JSON. Bodies are a template with {i}. */
if (require.main === module) {
  const spec = JSON.parse(process.argv[2]) as Omit<LoadSpec, 'body'> & { bodyTemplate?: string };
  runLoad({ ...spec, body: spec.bodyTemplate ? (i) => spec.bodyTemplate!.replace(/\{i\}/g, String(i)) : undefined }).then((r) => {
    process.stdout.write(JSON.stringify(r) + '\n');
  });
}
