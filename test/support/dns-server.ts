import dgram from 'node:dgram';

const TYPE_TXT = 16;
const RCODE = { noError: 0, serverFailure: 2, nameError: 3, refused: 5 } as const;

export type DnsTestServer = {
  /** `127.0.0.1:<port>`, the form DNS_SERVERS takes. */
  address: string;
  port: number;
  /** TXT records by lower-cased name; change them between requests. */
  records: Map<string, string[]>;
  /** How many queries the server answered. */
  queries: number;
  close(): Promise<void>;
};

/** Reads the question name starting at `offset`; returns it and where the question's type field starts. */
function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  while (offset < msg.length && msg[offset] !== 0) {
    const length = msg[offset];
    labels.push(msg.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { name: labels.join('.'), end: offset + 1 };
}

/** A TXT record's text as character-strings of at most 255 bytes each. */
function txtData(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function answer(query: Buffer, records: Map<string, string[]>, refuse: boolean): Buffer | null {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return null;
  const { name, end } = readName(query, 12);
  if (end + 4 > query.length) return null;
  const type = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const known = records.get(name.toLowerCase());
  const rcode = refuse ? RCODE.refused : known === undefined ? RCODE.nameError : RCODE.noError;
  const texts = !refuse && known && type === TYPE_TXT ? known : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR, the query's opcode, AA, the query's RD, RA, and the answer code.
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x7900) | 0x0400 | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(texts.length, 6);
  const answers = texts.map((text) => {
    const data = txtData(text);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

/**
 * A tiny authoritative DNS server on a loopback UDP port: answers TXT queries from `records`, NXDOMAIN for
 * other names, or REFUSED for everything when `refuse` is set. Enough for node's resolver to talk to.
 */
export async function startDnsServer(options: { records?: Record<string, string[]>; refuse?: boolean } = {}): Promise<DnsTestServer> {
  const socket = dgram.createSocket('udp4');
  const records = new Map(Object.entries(options.records ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const server: DnsTestServer = {
    address: '',
    port: 0,
    records,
    queries: 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (msg, peer) => {
    const reply = answer(msg, records, options.refuse ?? false);
    if (!reply) return;
    server.queries += 1;
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  server.port = socket.address().port;
  server.address = `127.0.0.1:${server.port}`;
  return server;
}
