import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver');

export type TestS3 = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  /** Every object under the prefix: key → bytes. */
  objects(prefix?: string): Promise<Map<string, Buffer>>;
  stop(): Promise<void>;
};

/** An S3-compatible server (s3rver) on loopback with one bucket, files in a temp dir. */
export async function startS3(bucket = 'exports'): Promise<TestS3> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chronicle-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  return {
    endpoint,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    client,
    async objects(prefix = '') {
      const out = new Map<string, Buffer>();
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const item of page.Contents ?? []) {
          const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: item.Key! }));
          out.set(item.Key!, Buffer.from(await object.Body!.transformToByteArray()));
        }
        token = page.NextContinuationToken;
      } while (token);
      return out;
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
