import { createServer, IncomingMessage, Server } from 'node:http';

export type Received = { headers: IncomingMessage['headers']; lines: any[] };

/** A loopback HTTP destination that records what it is sent, and can be told to be down. */
export async function startReceiver() {
  const received: Received[] = [];
  const state = { down: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (state.down) {
        res.writeHead(503).end('maintenance');
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, lines: text.split('\n').filter(Boolean).map((l) => JSON.parse(l)) });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/ingest`, received, state, stop: () => new Promise<void>((r) => server.close(() => r())) };
}
