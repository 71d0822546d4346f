import { z } from 'zod';

/** decisions.md: the domain part is lower-cased, the local part kept as given. */
export function normalizeEmail(email: string) {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at) + email.slice(at).toLowerCase();
}

// One @, no spaces, something on both sides; no dot required in the domain (the bootstrap user is admin@localhost).
const EMAIL = /^[^@\s]+@[^@\s.][^@\s]*$/;

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .refine((v) => EMAIL.test(v) && !v.endsWith('.'), { message: 'Enter a valid email address.' })
  .transform(normalizeEmail);
