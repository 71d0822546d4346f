import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** Keys and tokens: 32 random bytes, URL-safe, behind a prefix that tells their kind (phx_, phc_). */
export const generateToken = (prefix: string, bytes = 32) => prefix + randomBytes(bytes).toString('base64url');

/** Keys are high-entropy, so one SHA-256 is enough to store them safely; lookups stay a single index hit. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const maskToken = (token: string) => `${token.slice(0, 4)}...${token.slice(-4)}`;

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 };

/** Passwords are low-entropy: a slow, salted scrypt hash, parameters stored with it. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export function verifyPassword(password: string, stored: string | null | undefined): boolean {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(expected, actual);
}
