import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Chunk, DestinationWriter } from './writer';

const gzipAsync = promisify(gzip);

export type S3Config = {
  bucket_name: string;
  region: string;
  prefix: string;
  aws_access_key_id: string;
  aws_secret_access_key: string;
  endpoint_url?: string | null;
  compression?: 'gzip' | null;
  encryption?: 'AES256' | 'aws:kms' | null;
  kms_key_id?: string | null;
};

/**
 * S3 and any S3-compatible store (endpoint_url, path-style addressing). One object per chunk whose key is made of
 * the interval and the chunk number: writing a chunk again overwrites the same object with the same bytes.
 */
export class S3Writer implements DestinationWriter {
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint_url ?? undefined,
      forcePathStyle: Boolean(config.endpoint_url),
      credentials: { accessKeyId: config.aws_access_key_id, secretAccessKey: config.aws_secret_access_key },
      maxAttempts: 2,
    });
  }

  static keyOf(config: Pick<S3Config, 'prefix' | 'compression'>, chunk: Pick<Chunk, 'dataIntervalStart' | 'dataIntervalEnd' | 'index'>) {
    const prefix = config.prefix ? config.prefix.replace(/\/*$/, '/') : '';
    const extension = config.compression === 'gzip' ? 'jsonl.gz' : 'jsonl';
    return `${prefix}${chunk.dataIntervalStart}-${chunk.dataIntervalEnd}/${String(chunk.index).padStart(6, '0')}.${extension}`;
  }

  async write(chunk: Chunk) {
    if (chunk.records.length === 0) return;
    const lines = Buffer.from(chunk.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const body = this.config.compression === 'gzip' ? await gzipAsync(lines) : lines;
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket_name,
        Key: S3Writer.keyOf(this.config, chunk),
        Body: body,
        ContentType: 'application/jsonl',
        ...(this.config.compression === 'gzip' ? { ContentEncoding: 'gzip' } : {}),
        ...(this.config.encryption ? { ServerSideEncryption: this.config.encryption } : {}),
        ...(this.config.encryption === 'aws:kms' && this.config.kms_key_id ? { SSEKMSKeyId: this.config.kms_key_id } : {}),
      }),
    );
  }

  async close() {
    this.client.destroy();
  }
}
