/** The scopes a personal API key may hold: the interface's eleven, the reference names decisions.md adds, and '*'. */
export const KNOWN_SCOPES = [
  '*',
  'dashboard:read',
  'dashboard:write',
  'sharing_configuration:read',
  'sharing_configuration:write',
  'organization:read',
  'organization:write',
  'batch_export:read',
  'batch_export:write',
  'organization_member:read',
  'organization_member:write',
  'plugin:read',
  'plugin:write',
  'project:read',
  'project:write',
  'query:read',
  'person:read',
  'group:read',
  'event_definition:read',
  'activity_log:read',
] as const;

export type Scope = Exclude<(typeof KNOWN_SCOPES)[number], '*'>;

/** Write implies read; '*' grants everything. */
export function scopesGrant(held: readonly string[], required: Scope): boolean {
  if (held.includes('*') || held.includes(required)) return true;
  if (required.endsWith(':read')) return held.includes(required.replace(/:read$/, ':write'));
  return false;
}
