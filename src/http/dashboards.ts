import { Router } from 'express';
import type { Services } from '../container';

/** Placeholder until the dashboards API lands. */
export function dashboardsRouter(_services: Services) {
  return Router();
}
