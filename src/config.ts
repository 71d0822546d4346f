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
  /** Requests per minute per personal API key; unset or 0: no throttling. */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  /** Failed logins allowed per e-mail and per client address within the window; 0: no login throttling. */
  LOGIN_FAILURE_LIMIT: z.coerce.number().int().min(0).default(10),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  /**
   * Which X-Forwarded-For hops to believe for the client address (login throttling, logs): unset trusts none, as
   * when clients reach Chronicle directly; behind a load balancer give its hop count or addresses (express syntax).
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*|loopback|linklocal|uniquelocal)$/, 'must be true, false, a hop count or addresses')
    .default('false'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  BOOTSTRAP_EMAIL: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address').default('admin@localhost'),
  BOOTSTRAP_PASSWORD: z.string().min(8).optional(),
  BOOTSTRAP_ORGANIZATION_NAME: z.string().min(1).max(64).default('Default organization'),
  BOOTSTRAP_PROJECT_NAME: z.string().min(1).max(200).default('Default project'),
  BOOTSTRAP_PERSONAL_API_KEY: z.string().startsWith('phx_').min(12).optional(),
  BOOTSTRAP_PROJECT_API_KEY: z.string().startsWith('phc_').min(12).optional(),
  /** Comma-separated ip[:port] list the domain verification asks; unset: the system's resolvers. */
  DNS_SERVERS: z.string().regex(/^\s*[^,\s]+(\s*,\s*[^,\s]+)*\s*$/, 'must be a comma-separated list of ip[:port]').optional(),
  DOMAIN_VERIFICATION_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be a DNS label').default('_chronicle-challenge'),
  /** Batch exports: the worker (scheduler + delivery) runs in the service unless set to off. */
  BATCH_EXPORT_WORKER: z.enum(['on', 'off']).default('on'),
  BATCH_EXPORT_TICK_MS: z.coerce.number().int().min(10).default(5000),
  BATCH_EXPORT_RETRY_BACKOFF_MS: z.coerce.number().int().min(0).default(60_000),
  BATCH_EXPORT_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
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
