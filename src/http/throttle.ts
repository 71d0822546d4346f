import { apiErrors } from './errors';

/**
 * Per personal-API-key request budget, as the reference keys its throttles (per key, not per team). Off unless
 * API_RATE_LIMIT_PER_MINUTE is set: a self-hosted installation's own scripts should not be throttled by default.
 * A token bucket: the full budget may burst, then it refills continuously.
 */
export class KeyThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number | undefined) {}

  check(keyId: string, now = Date.now()) {
    if (!this.perMinute) return;
    const refillPerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(keyId) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * refillPerMs);
    bucket.at = now;
    this.buckets.set(keyId, bucket);
    if (bucket.tokens < 1) {
      const wait = Math.ceil((1 - bucket.tokens) / refillPerMs / 1000);
      throw apiErrors.throttled(wait);
    }
    bucket.tokens -= 1;
  }
}
