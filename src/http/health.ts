import { Router } from 'express';
import type { Services } from '../container';

export function healthRouter(services: Services) {
  const router = Router();
  router.get('/_health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/_readyz', (_req, res) => {
    const ready = services.projections.isCaughtUp();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'catching_up' });
  });
  return router;
}
