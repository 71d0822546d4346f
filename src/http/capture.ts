import { NextFunction, Request, Response, Router } from 'express';
import type { Services } from '../container';
import { decodeBody, readRawBody } from '../ingestion/body';
import { Ingestion } from '../ingestion/ingestion';
import { sendError, toApiError } from './errors';

/**
 * Event capture (`{ingest_url}/batch/`, `/capture/`, `/e/`). Not a management resource: no personal key, any
 * content type, gzip by magic bytes, a 20 MiB limit, and 200 `{"status": 1}` only once the events are durable.
 */
export function captureRouter(services: Services) {
  const router = Router();
  const ingestion = Ingestion.for(services);
  const handle = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const raw = await readRawBody(req);
      const body = await decodeBody(raw, req.headers['content-encoding']);
      await ingestion.capture(body);
      res.status(200).json({ status: 1 });
    } catch (error) {
      const known = toApiError(error);
      if (!known) return next(error);
      if (known.status === 413) res.set('Connection', 'close');
      sendError(res, known);
    }
  };
  for (const path of ['/batch/', '/capture/', '/e/', '/track/']) router.post(path, handle);
  return router;
}
