import type { Request } from 'express';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { ApiError } from '../http/errors';

/** /batch/ takes at most 20 MiB, compressed or not (the reference's BATCH_BODY_SIZE). */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);

export const captureErrors = {
  tooLarge: () => new ApiError(413, 'invalid_request', 'payload_too_large', `Request body is larger than the limit of ${MAX_BODY_BYTES} bytes (20 MiB).`),
  noData: () =>
    new ApiError(400, 'validation_error', 'no_data', 'No data found. Make sure to use a POST request when sending the payload in the body of the request.'),
  malformed: (why: string) => new ApiError(400, 'validation_error', 'invalid_payload', `Malformed request data: ${why}`),
  invalidPayload: (why: string, attr: string | null = null) => new ApiError(400, 'validation_error', 'invalid_payload', `Invalid payload: ${why}`, attr),
};

/**
 * Reads the raw body, counting bytes as they arrive: a declared or actual size over the limit is refused before
 * anything is parsed, and at most the limit is ever held in memory.
 */
export function readRawBody(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(captureErrors.tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const onData = (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        // Keep draining (discarding) so the client gets to read the 413 instead of a reset connection.
        reject(captureErrors.tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => !failed && resolve(Buffer.concat(chunks, size)));
    req.once('error', (error) => !failed && ((failed = true), reject(captureErrors.malformed(error.message))));
  });
}

/** Gzip is recognised by its magic bytes whatever the headers claim (posthog-node and the JS snippet differ). */
export async function decodeBody(raw: Buffer, contentEncoding: string | undefined): Promise<unknown> {
  let bytes = raw;
  const gzipped = (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) || /\bgzip\b/i.test(contentEncoding ?? '');
  if (gzipped) {
    try {
      bytes = await gunzipAsync(raw, { maxOutputLength: MAX_BODY_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw captureErrors.tooLarge();
      throw captureErrors.malformed('the body is not valid gzip.');
    }
  }
  if (bytes.length === 0) throw captureErrors.noData();
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw captureErrors.malformed((error as Error).message);
  }
}
