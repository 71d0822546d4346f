import type { ExportRecord } from '../records';

export type Chunk = {
  runId: string;
  /** 0-based; with the run, it names the chunk at the destination (object key, idempotency key). */
  index: number;
  dataIntervalStart: string;
  dataIntervalEnd: string;
  records: ExportRecord[];
  /** Each record's identity (event uuid, person id), for tables whose key is not a delivered field. */
  keys?: string[];
};

/**
 * Delivers chunks to one destination. Writing the same chunk twice must leave the destination as writing it
 * once did: that is what makes a resumed run safe.
 */
export interface DestinationWriter {
  write(chunk: Chunk): Promise<void>;
  close(): Promise<void>;
}

/** A failure that retrying will not cure (wrong credentials, an engine this installation cannot reach). */
export class PermanentDestinationError extends Error {}
