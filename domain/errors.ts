/**
 * A rule of the domain refused a command. The kind says which family of answer it is; the HTTP edge turns
 * kinds into statuses, so the domain never speaks HTTP.
 */
export type DomainErrorKind = 'validation' | 'permission' | 'not_found' | 'conflict';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null = null,
  ) {
    super(detail);
  }
}

export const invalid = (detail: string, attr: string | null = null, code = 'invalid_input') =>
  new DomainError('validation', code, detail, attr);

export const denied = (detail: string) => new DomainError('permission', 'permission_denied', detail);

export const notFound = (detail = 'Not found.') => new DomainError('not_found', 'not_found', detail);
