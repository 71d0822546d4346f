import type { ErrorRequestHandler } from 'express';
import { DomainError } from '../../domain/errors';
import { ConcurrencyConflictError, PreconditionFailedError } from '../commands/command-handler';

/** An answer in the reference product's error envelope: {type, code, detail, attr}. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  get body() {
    return { type: this.type, code: this.code, detail: this.detail, attr: this.attr };
  }
}

export const apiErrors = {
  notAuthenticated: () =>
    new ApiError(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.', null, {
      'WWW-Authenticate': 'Bearer realm="api"',
    }),
  invalidPersonalApiKey: (where: 'Authorization header' | 'body' | 'query string') =>
    new ApiError(401, 'authentication_error', 'authentication_failed', `Personal API key found in request ${where} is invalid.`, null, {
      'WWW-Authenticate': 'Bearer realm="api"',
    }),
  authenticationFailed: (detail: string, code = 'authentication_failed') => new ApiError(401, 'authentication_error', code, detail),
  permissionDenied: (detail = 'You do not have permission to perform this action.') =>
    new ApiError(403, 'authentication_error', 'permission_denied', detail),
  notFound: (detail = 'Not found.') => new ApiError(404, 'invalid_request', 'not_found', detail),
  methodNotAllowed: (method: string) => new ApiError(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`),
  validation: (detail: string, attr: string | null = null, code = 'invalid_input') => new ApiError(400, 'validation_error', code, detail, attr),
  parse: (detail: string) => new ApiError(400, 'invalid_request', 'parse_error', detail),
  unsupportedMediaType: (type: string) =>
    new ApiError(415, 'invalid_request', 'unsupported_media_type', `Unsupported media type "${type}" in request.`),
  tooLarge: (limit: string) => new ApiError(413, 'invalid_request', 'payload_too_large', `Request body is larger than the limit of ${limit}.`),
  preconditionFailed: (detail: string) => new ApiError(412, 'invalid_request', 'precondition_failed', detail),
  conflict: (detail: string) => new ApiError(409, 'invalid_request', 'conflict', detail),
  throttled: (seconds: number) =>
    new ApiError(429, 'throttled_error', 'throttled', `Request was throttled. Expected available in ${seconds} seconds.`, null, { 'Retry-After': String(seconds) }),
};

const DOMAIN_STATUS = { validation: 400, permission: 403, not_found: 404, conflict: 409 } as const;

export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    const status = DOMAIN_STATUS[error.kind];
    const type = status === 400 ? 'validation_error' : status === 403 ? 'authentication_error' : 'invalid_request';
    return new ApiError(status, type, error.code, error.detail, error.attr);
  }
  if (error instanceof PreconditionFailedError) {
    return apiErrors.preconditionFailed(`The resource changed: If-Match names revision ${error.expected}, it is at ${error.actual}.`);
  }
  if (error instanceof ConcurrencyConflictError) return apiErrors.conflict('The resource is being changed concurrently; retry the request.');
  const e = error as { type?: string; status?: number; limit?: number };
  if (e?.type === 'entity.too.large') return apiErrors.tooLarge(`${e.limit} bytes`);
  if (e?.type === 'entity.parse.failed') return apiErrors.parse('JSON parse error - the body is not valid JSON.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return apiErrors.unsupportedMediaType(String(e.type));
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return new ApiError(e.status, 'invalid_request', 'invalid_request', String((error as Error).message));
  return undefined;
}

export function sendError(res: import('express').Response, error: ApiError) {
  res.status(error.status).set(error.headers).json(error.body);
}

export function errorMiddleware(onUnexpected: (error: unknown) => void): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const known = toApiError(error);
    if (known) return sendError(res, known);
    onUnexpected(error);
    sendError(res, new ApiError(500, 'server_error', 'error', 'A server error occurred.'));
  };
}
