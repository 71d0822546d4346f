import type { Request } from 'express';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type Page = { limit: number; offset: number };

const intParam = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN);

/** decisions.md: a bad or non-positive limit means 100, a larger one is clamped to 1000; a bad offset means 0. */
export function pageOf(req: Request): Page {
  const limit = intParam(req.query.limit);
  const offset = intParam(req.query.offset);
  return {
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
    offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
  };
}

function pageUrl(req: Request, publicUrl: string | undefined, limit: number, offset: number | null) {
  const base = publicUrl ? publicUrl.replace(/\/+$/, '') : `${req.protocol}://${req.get('host')}`;
  const url = new URL(req.originalUrl, base + '/');
  const target = new URL(base + url.pathname + url.search);
  target.searchParams.set('limit', String(limit));
  if (offset === null) target.searchParams.delete('offset');
  else target.searchParams.set('offset', String(offset));
  return target.toString();
}

/** The paginated envelope {count, next, previous, results}, next/previous as absolute URLs of the same request. */
export function paginated<T>(req: Request, publicUrl: string | undefined, page: Page, count: number, results: T[]) {
  const { limit, offset } = page;
  const next = offset + limit < count ? pageUrl(req, publicUrl, limit, offset + limit) : null;
  const previous = offset <= 0 ? null : pageUrl(req, publicUrl, limit, offset - limit <= 0 ? null : offset - limit);
  return { count, next, previous, results };
}
