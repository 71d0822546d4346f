import path from 'node:path';
import { z } from 'zod';

/** Every setting Chronicle reads from its environment, parsed in this one place (runtime.md lists them). */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url().optional(),
  EVENTSTORE_URL: z.string().regex(/^esdb(\+discover)?:\/\//, 'must start with esdb:// or esdb+discover://').optional(),
  MONGODB_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://').optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  BOOTSTRAP_EMAIL: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address').default('admin@localhost'),
  BOOTSTRAP_PASSWORD: z.string().min(8).optional(),
  BOOTSTRAP_ORGANIZATION_NAME: z.string().min(1).max(64).default('Default organization'),
  BOOTSTRAP_PROJECT_NAME: z.string().min(1).max(200).default('Default project'),
  BOOTSTRAP_PERSONAL_API_KEY: z.string().startsWith('phx_').min(12).optional(),
  BOOTSTRAP_PROJECT_API_KEY: z.string().startsWith('phc_').min(12).optional(),
});

export type Config = z.infer<typeof schema> & { DATA_DIR: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `FOO= cmd` idiom.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${problems}`);
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}
