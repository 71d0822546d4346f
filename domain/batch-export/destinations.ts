import { z } from 'zod';

/**
 * The destination types and their config fields (decisions.md, "Batch exports"). Secret fields are stored with
 * the export, used by the worker, and never returned.
 */
export const DESTINATION_TYPES = ['S3', 'Snowflake', 'Postgres', 'Redshift', 'BigQuery', 'Databricks', 'HTTP', 'NoOp'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

const text = z.string().min(1);
const events = z.array(z.string()).nullish();
const common = { include_events: events, exclude_events: events };

const postgresFields = (defaultPort: number) => ({
  user: text,
  password: z.string(),
  host: text,
  port: z.coerce.number().int().min(1).max(65535).default(defaultPort),
  database: text,
  schema: text.default('public'),
  table_name: text.default('events'),
  has_self_signed_cert: z.boolean().default(false),
  ...common,
});

export const DESTINATION_CONFIGS = {
  S3: z.object({
    bucket_name: text,
    region: text,
    prefix: z.string().default(''),
    aws_access_key_id: text,
    aws_secret_access_key: text,
    endpoint_url: z.url().nullish(),
    compression: z.enum(['gzip']).nullish(),
    file_format: z.enum(['JSONLines']).default('JSONLines'),
    encryption: z.enum(['AES256', 'aws:kms']).nullish(),
    kms_key_id: z.string().nullish(),
    ...common,
  }),
  Postgres: z.object(postgresFields(5432)),
  Redshift: z.object({ ...postgresFields(5439), mode: z.enum(['COPY', 'INSERT']).default('INSERT') }),
  HTTP: z.object({ url: z.url(), token: text, ...common }),
  Snowflake: z
    .object({
      account: text,
      user: text,
      authentication_type: z.enum(['password', 'keypair']).default('password'),
      password: z.string().nullish(),
      private_key: z.string().nullish(),
      private_key_passphrase: z.string().nullish(),
      database: text,
      warehouse: text,
      schema: text,
      table_name: text.default('events'),
      role: z.string().nullish(),
      ...common,
    })
    .superRefine((config, ctx) => {
      if (config.authentication_type === 'password' && !config.password) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password is required if authentication type is password' });
      }
      if (config.authentication_type === 'keypair' && !config.private_key) {
        ctx.addIssue({ code: 'custom', path: ['private_key'], message: 'Private key is required if authentication type is key pair' });
      }
    }),
  BigQuery: z.object({
    project_id: text,
    dataset_id: text,
    table_id: text.default('events'),
    private_key: text,
    private_key_id: text,
    client_email: text,
    token_uri: text,
    use_json_type: z.boolean().default(false),
    ...common,
  }),
  Databricks: z.object({ http_path: text, catalog: text, schema: text, table_name: text.default('events'), ...common }),
  NoOp: z.object({ ...common }),
} satisfies Record<DestinationType, z.ZodType>;

export const SECRET_FIELDS: Record<DestinationType, readonly string[]> = {
  S3: ['aws_access_key_id', 'aws_secret_access_key'],
  Postgres: ['user', 'password'],
  Redshift: ['user', 'password'],
  HTTP: ['token'],
  Snowflake: ['password', 'private_key', 'private_key_passphrase'],
  BigQuery: ['private_key', 'private_key_id', 'client_email', 'token_uri'],
  Databricks: [],
  NoOp: [],
};

export type Destination = { type: DestinationType; config: Record<string, unknown> };

/** What responses show of a destination: everything but its secrets. */
export function publicDestination(destination: Destination): Destination {
  const secrets = new Set(SECRET_FIELDS[destination.type] ?? []);
  return { type: destination.type, config: Object.fromEntries(Object.entries(destination.config).filter(([k]) => !secrets.has(k))) };
}
