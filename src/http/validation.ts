import type { Request } from 'express';
import type { z } from 'zod';
import { ApiError, apiErrors } from './errors';

type Issue = z.core.$ZodIssue;

const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value === 'string' ? 'str' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : typeof value === 'boolean' ? 'bool' : typeof value === 'object' ? 'dict' : typeof value;

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current: any = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[key as any];
  }
  return current;
}

/** The reference product's texts for each kind of field error, so clients that match on them keep working. */
export function issueToApiError(issue: Issue, input: unknown): ApiError {
  const attr = issue.path.length ? issue.path.map(String).join('__') : null;
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (value === undefined) return apiErrors.validation('This field is required.', attr, 'required');
      if (value === null) return apiErrors.validation('This field may not be null.', attr, 'null');
      const expected = issue.expected;
      if (expected === 'string') return apiErrors.validation('Not a valid string.', attr);
      if (expected === 'number' || expected === 'int' || expected === 'bigint') return apiErrors.validation('A valid integer is required.', attr);
      if (expected === 'boolean') return apiErrors.validation('Must be a valid boolean.', attr);
      if (expected === 'array') return apiErrors.validation(`Expected a list of items but got type "${typeName(value)}".`, attr, 'not_a_list');
      if (expected === 'object' || expected === 'record') return apiErrors.validation(`Expected a dictionary of items but got type "${typeName(value)}".`, attr);
      return apiErrors.validation(issue.message, attr);
    }
    case 'too_big':
      if (issue.origin === 'string') return apiErrors.validation(`Ensure this field has no more than ${issue.maximum} characters.`, attr, 'max_length');
      if (issue.origin === 'array') return apiErrors.validation(`Ensure this field has no more than ${issue.maximum} elements.`, attr, 'max_length');
      return apiErrors.validation(`Ensure this value is less than or equal to ${issue.maximum}.`, attr, 'max_value');
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? apiErrors.validation('This field may not be blank.', attr, 'blank')
          : apiErrors.validation(`Ensure this field has at least ${issue.minimum} characters.`, attr, 'min_length');
      }
      if (issue.origin === 'array') return apiErrors.validation(`Ensure this field has at least ${issue.minimum} elements.`, attr, 'min_length');
      return apiErrors.validation(`Ensure this value is greater than or equal to ${issue.minimum}.`, attr, 'min_value');
    case 'invalid_value':
      if (value === undefined) return apiErrors.validation('This field is required.', attr, 'required');
      return apiErrors.validation(`"${String(value)}" is not a valid choice.`, attr, 'invalid_choice');
    case 'invalid_format':
      if (issue.format === 'email') return apiErrors.validation('Enter a valid email address.', attr);
      if (issue.format === 'uuid' || issue.format === 'guid') return apiErrors.validation(`"${String(value)}" is not a valid UUID.`, attr);
      if (issue.format === 'datetime') return apiErrors.validation('Datetime has wrong format. Use ISO 8601.', attr);
      return apiErrors.validation(issue.message, attr);
    case 'custom':
      return apiErrors.validation(issue.message, attr, (issue.params?.code as string) ?? 'invalid_input');
    default:
      return apiErrors.validation(issue.message || 'Invalid input.', attr);
  }
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw issueToApiError(result.error.issues[0], input);
  return result.data;
}

const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

/**
 * The management API reads its body lazily, after authentication and permissions (as the reference does), so a
 * caller without access learns nothing from how the body is judged. Bodies arrive as raw bytes.
 */
export function readJsonBody(req: Request): unknown {
  const raw = req.body;
  if (raw === undefined || raw === null) return {};
  if (!Buffer.isBuffer(raw)) return raw;
  if (raw.length === 0) return {};
  const type = req.headers['content-type'];
  if (type && !JSON_TYPE.test(type)) throw apiErrors.unsupportedMediaType(type.split(';')[0].trim());
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw apiErrors.parse(`JSON parse error - ${(error as Error).message}`);
  }
}

export function parseBody<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const body = readJsonBody(req);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    if (!(schema as any).def || (schema as any).def.type !== 'array') {
      throw apiErrors.validation(`Invalid data. Expected a dictionary, but got ${typeName(body)}.`, 'non_field_errors');
    }
  }
  return parseWith(schema, body);
}

/** An empty query parameter (`?after=`) means the filter is not set, as in the reference's filter sets. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  return parseWith(schema, Object.fromEntries(Object.entries(req.query).filter(([, value]) => value !== '')));
}
