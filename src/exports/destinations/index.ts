import type { Destination } from '../../../domain/batch-export/destinations';
import { EVENTS_SHAPE, RecordShape } from '../records';
import { HttpWriter } from './http';
import { PostgresConfig, PostgresWriter } from './postgres';
import { S3Config, S3Writer } from './s3';
import { Chunk, DestinationWriter, PermanentDestinationError } from './writer';

/** NoOp delivers nothing and counts what it was given (the reference's testing destination). */
export class NoOpWriter implements DestinationWriter {
  records = 0;
  async write(chunk: Chunk) {
    this.records += chunk.records.length;
  }
  async close() {}
}

/**
 * The writer for a destination; table destinations lay their columns out by the records' shape. Engines whose
 * client this installation does not ship fail the run plainly, never with a pretended success.
 */
export function createWriter(destination: Destination, shape: RecordShape = EVENTS_SHAPE): DestinationWriter {
  const config = destination.config as any;
  switch (destination.type) {
    case 'Postgres':
      return new PostgresWriter(config as PostgresConfig, 'postgres', shape);
    case 'Redshift':
      return new PostgresWriter(config as PostgresConfig, 'redshift', shape);
    case 'HTTP':
      return new HttpWriter(config);
    case 'S3':
      return new S3Writer(config as S3Config);
    case 'NoOp':
      return new NoOpWriter();
    case 'Snowflake':
    case 'BigQuery':
    case 'Databricks':
      throw new PermanentDestinationError(
        `The ${destination.type} destination cannot be reached from this installation: it ships no ${destination.type} client. Export to S3, Postgres, Redshift or HTTP instead.`,
      );
    default:
      throw new PermanentDestinationError(`Unknown destination type ${String((destination as Destination).type)}.`);
  }
}

export { PermanentDestinationError };
export type { Chunk, DestinationWriter };
