import { createHash } from 'node:crypto';
import { apiErrors } from '../http/errors';

/**
 * Failures per key within a sliding window. In memory, per process: it slows guessing down, it is not an
 * audit log, and a restart forgets it. Bounded: beyond `maxKeys` the stalest keys are dropped first.
 */
export class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  private recent(key: string, now: number) {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  /** Milliseconds until `key` may fail once more without being over the limit; 0 when it may now. */
  blockedFor(key: string, now: number): number {
    if (this.limit <= 0) return 0;
    const times = this.recent(key, now);
    if (times.length < this.limit) return 0;
    return times[times.length - this.limit] + this.windowMs - now;
  }

  fail(key: string, now: number) {
    if (this.limit <= 0) return;
    const times = this.recent(key, now);
    this.failures.delete(key);
    this.failures.set(key, [...times, now].slice(-this.limit));
    for (const stalest of this.failures.keys()) {
      if (this.failures.size <= this.maxKeys) break;
      this.failures.delete(stalest);
    }
  }

  clear(key: string) {
    this.failures.delete(key);
  }
}

/**
 * Failed logins, counted per e-mail address (unknown ones too, so the answer never tells which exist) and per
 * client address. Over the limit on either, every login attempt is refused with 429 before a password is
 * checked, until the oldest counted failure leaves the window. Addresses are kept only as a hash.
 */
export class LoginThrottle {
  private readonly window: FailureWindow;

  constructor(limit: number, windowSeconds: number) {
    this.window = new FailureWindow(limit, windowSeconds * 1000);
  }

  private keys(email: string, client: string | undefined) {
    const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
    return [`email:${hash(email.toLowerCase())}`, ...(client ? [`client:${client}`] : [])];
  }

  check(email: string, client: string | undefined, now = Date.now()) {
    const wait = Math.max(...this.keys(email, client).map((k) => this.window.blockedFor(k, now)));
    if (wait > 0) throw apiErrors.throttled(Math.max(1, Math.ceil(wait / 1000)));
  }

  failed(email: string, client: string | undefined, now = Date.now()) {
    for (const key of this.keys(email, client)) this.window.fail(key, now);
  }

  /** A right password clears its e-mail's count; the client's stays, or one's own account could reset it. */
  succeeded(email: string) {
    this.window.clear(this.keys(email, undefined)[0]);
  }
}
