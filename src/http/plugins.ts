import { Router } from 'express';
import type { Services } from '../container';

/** Placeholder: this resource is not built yet. */
export function pluginsRouter(_services: Services) {
  return Router();
}
