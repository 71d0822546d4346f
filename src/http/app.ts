import express from 'express';
import type { Services } from '../container';
import { analyticsRouter } from './analytics';
import { batchExportsRouter } from './batch-exports';
import { captureRouter } from './capture';
import { dashboardsRouter } from './dashboards';
import { domainsRouter } from './domains';
import { apiErrors, errorMiddleware, sendError } from './errors';
import { healthRouter } from './health';
import { historyRouter } from './history';
import { invitesRouter } from './invites';
import { membersRouter } from './members';
import { organizationsRouter } from './organizations';
import { personalApiKeysRouter } from './personal-api-keys';
import { pluginsRouter } from './plugins';
import { projectsRouter } from './projects';
import { sessionsRouter } from './sessions';
import { usersRouter } from './users';

/** Management bodies are small JSON documents; anything bigger is refused with 413 before it is read. */
export const MANAGEMENT_BODY_LIMIT = '2mb';

/** Every router of the service. Each registers its specific paths before the parameterised ones they resemble. */
const routers: ((services: Services) => express.Router)[] = [
  healthRouter,
  // Before the resources: it answers their retrieves only when asked for a past version (as_of, revision).
  historyRouter,
  captureRouter,
  sessionsRouter,
  usersRouter,
  personalApiKeysRouter,
  organizationsRouter,
  membersRouter,
  invitesRouter,
  domainsRouter,
  pluginsRouter,
  batchExportsRouter,
  projectsRouter,
  dashboardsRouter,
  analyticsRouter,
];

export function createApp(services: Services) {
  const app = express();
  app.disable('x-powered-by');
  const trust = services.config.TRUST_PROXY;
  app.set('trust proxy', trust === 'true' ? true : trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust);
  // Raw bytes: each endpoint parses (and judges the media type) only after authentication, as the reference does.
  app.use('/api', express.raw({ type: () => true, limit: MANAGEMENT_BODY_LIMIT }));
  for (const router of routers) app.use(router(services));
  app.use((_req, res) => sendError(res, apiErrors.notFound()));
  app.use(errorMiddleware((error) => services.logger.error('unhandled error', { error: error instanceof Error ? error.stack : String(error) })));
  return app;
}
