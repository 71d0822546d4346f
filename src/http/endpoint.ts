import type { NextFunction, Request, Response, Router } from 'express';
import type { CommandMetadata } from '../../domain/decider';
import type { Services } from '../container';
import type { Scope } from '../identity/scopes';
import { requireScope } from './access';
import { authenticate, Principal } from './auth';
import { apiErrors } from './errors';

export type Reply = { status: number; body?: unknown; revision?: bigint; headers?: Record<string, string> };

export type Context = {
  req: Request;
  res: Response;
  services: Services;
  principal: Principal;
  metadata: CommandMetadata;
  /** The revision named by If-Match, when the client sent one (optimistic concurrency over HTTP). */
  ifMatch?: bigint;
};

export type PublicContext = Omit<Context, 'principal'>;

/** `scope: null` means any authenticated caller (e.g. /api/users/@me/). */
export type Operation = { scope: Scope | null; handler: (ctx: Context) => Promise<Reply> };
export type PublicOperation = { handler: (ctx: PublicContext) => Promise<Reply> };

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export const ok = (body: unknown, revision?: bigint): Reply => ({ status: 200, body, revision });
export const created = (body: unknown, revision?: bigint): Reply => ({ status: 201, body, revision });
export const empty = (status = 200): Reply => ({ status });

function ifMatchOf(req: Request): bigint | undefined {
  const header = req.headers['if-match'];
  if (!header || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(-?\d+)"?\s*$/.exec(header);
  if (!match) throw apiErrors.preconditionFailed('If-Match must name a revision, as the ETag header gives it.');
  return BigInt(match[1]);
}

function send(res: Response, reply: Reply) {
  if (reply.revision !== undefined && reply.revision >= 0n) res.setHeader('ETag', `W/"${reply.revision}"`);
  if (reply.headers) res.set(reply.headers);
  res.status(reply.status);
  if (reply.body === undefined) res.end();
  else res.json(reply.body);
}

const baseContext = (req: Request, res: Response, services: Services) => ({
  req,
  res,
  services,
  metadata: { now: new Date().toISOString() },
  ifMatch: ifMatchOf(req),
});

function register<Op>(
  router: Router,
  services: Services,
  path: string,
  operations: Partial<Record<Method, Op>>,
  run: (op: Op, req: Request, res: Response) => Promise<Reply>,
  guardUnknownMethod: (req: Request) => Promise<unknown>,
) {
  for (const [method, operation] of Object.entries(operations) as [Method, Op][]) {
    router[method](path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        send(res, await run(operation, req, res));
      } catch (error) {
        next(error);
      }
    });
  }
  router.all(path, async (req: Request, _res: Response, next: NextFunction) => {
    try {
      await guardUnknownMethod(req);
      throw apiErrors.methodNotAllowed(req.method);
    } catch (error) {
      next(error);
    }
  });
}

/**
 * Registers the operations of one path and the checks every one of them goes through, in the reference's order:
 * authentication (401), scope and membership (403, inside the handler's access call), method (405), existence
 * (404) and validation (400).
 */
export function resource(router: Router, services: Services, path: string, operations: Partial<Record<Method, Operation>>) {
  register(router, services, path, operations, (operation, req, res) => runOperation(services, operation, req, res), (req) => authenticate(req, services));
}

async function runOperation(services: Services, operation: Operation, req: Request, res: Response) {
  const principal = await authenticate(req, services);
  if (principal.key) services.throttle.check(principal.key.id);
  if (operation.scope) requireScope(principal, operation.scope);
  const base = baseContext(req, res, services);
  return operation.handler({ ...base, principal, metadata: { ...base.metadata, userId: principal.user.id } });
}

/**
 * One operation as a plain express handler that passes the request on (`next()`) unless `applies` says it is
 * its to answer: how a cross-cutting reading (as-of retrieves) sits in front of a resource's own GET.
 */
export function conditionalOperation(services: Services, applies: (req: Request) => boolean, operation: Operation) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!applies(req)) return next();
    try {
      send(res, await runOperation(services, operation, req, res));
    } catch (error) {
      next(error);
    }
  };
}

/** Operations open to anyone (login, signup): no authentication, same error handling. */
export function publicResource(router: Router, services: Services, path: string, operations: Partial<Record<Method, PublicOperation>>) {
  register(router, services, path, operations, (operation, req, res) => operation.handler(baseContext(req, res, services)), async () => undefined);
}
