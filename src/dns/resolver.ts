import { Resolver } from 'node:dns/promises';
import type { TxtAnswer, TxtLookup } from './port';

export const DNS_TIMEOUT_MS = 5000;

const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

/** "1.2.3.4", "1.2.3.4:5353", "[::1]:53", "::1" → the form node:dns setServers accepts. */
export function parseDnsServers(list: string | undefined): string[] {
  if (!list) return [];
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * TXT lookups through node's c-ares resolver, on the configured servers or the system's. One try with the
 * timeout, plus a hard deadline of the same length, so a verification request never hangs on DNS.
 */
export class NodeTxtLookup implements TxtLookup {
  constructor(
    private readonly servers: string[] = [],
    private readonly timeoutMs = DNS_TIMEOUT_MS,
  ) {
    // Fails at startup on a malformed server list rather than on the first verification.
    if (servers.length) new Resolver().setServers(servers);
  }

  async resolveTxt(name: string): Promise<TxtAnswer> {
    // A resolver per lookup: cancel() on the deadline must not abort other requests' lookups.
    const resolver = new Resolver({ timeout: this.timeoutMs, tries: 1 });
    if (this.servers.length) resolver.setServers(this.servers);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<TxtAnswer>((resolve) => {
      timer = setTimeout(() => {
        resolver.cancel();
        resolve({ outcome: 'error', detail: `DNS lookup timed out after ${this.timeoutMs} ms` });
      }, this.timeoutMs + 100);
    });
    const lookup = resolver.resolveTxt(name).then(
      (chunks): TxtAnswer => {
        // A TXT record may be split into several character-strings; its value is their concatenation.
        const records = chunks.map((parts) => parts.join(''));
        return records.length ? { outcome: 'records', records } : { outcome: 'no_record' };
      },
      (error: NodeJS.ErrnoException): TxtAnswer =>
        NOT_FOUND_CODES.has(String(error.code)) ? { outcome: 'no_record' } : { outcome: 'error', detail: `DNS lookup failed (${error.code ?? 'unknown error'})` },
    );
    try {
      return await Promise.race([lookup, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
