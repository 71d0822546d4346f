import type { Scope } from '../../src/identity/scopes';

/**
 * Every authenticated endpoint of the service: method, path, scope. Placeholders: {org} and {project} are the
 * bootstrap organization and project; {id}, {uuid}, {int} name objects. `session`: only a logged-in person may
 * call it, never a key. Public endpoints (no authentication): GET /_health, GET /_readyz, POST /api/login/,
 * POST /api/signup/{id}/, POST /batch/. Used by the access matrix and the bad-input sweep.
 */
export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
export type Row = [method: Method, path: string, scope: Scope | null | 'session'];

const PLUGIN_GROUPS = ['pipeline_destinations', 'pipeline_frontend_apps', 'pipeline_import_apps', 'pipeline_transformations'];

export const ENDPOINTS: Row[] = [
  // the caller
  ['get', '/api/users/@me/', null],
  ['post', '/api/logout/', null],
  ['get', '/api/personal_api_keys/', null],
  ['post', '/api/personal_api_keys/', 'session'],
  ['get', '/api/personal_api_keys/{uuid}/', null],
  ['delete', '/api/personal_api_keys/{uuid}/', 'session'],
  ['get', '/api/organizations/', 'organization:read'],
  ['post', '/api/organizations/', 'organization:write'],
  ['get', '/api/projects/', 'project:read'],
  // organizations
  ['get', '/api/organizations/{org}/', 'organization:read'],
  ['patch', '/api/organizations/{org}/', 'organization:write'],
  ['delete', '/api/organizations/{org}/', 'organization:write'],
  ['get', '/api/organizations/{org}/projects/', 'project:read'],
  ['post', '/api/organizations/{org}/projects/', 'project:write'],
  // members and invites
  ['get', '/api/organizations/{org}/members/', 'organization_member:read'],
  ['patch', '/api/organizations/{org}/members/{uuid}/', 'organization_member:write'],
  ['delete', '/api/organizations/{org}/members/{uuid}/', 'organization_member:write'],
  ['get', '/api/organizations/{org}/invites/', 'organization_member:read'],
  ['post', '/api/organizations/{org}/invites/', 'organization_member:write'],
  ['post', '/api/organizations/{org}/invites/bulk/', 'organization_member:write'],
  ['delete', '/api/organizations/{org}/invites/{uuid}/', 'organization_member:write'],
  // domains
  ['get', '/api/organizations/{org}/domains/', 'organization:read'],
  ['post', '/api/organizations/{org}/domains/', 'organization:write'],
  ['get', '/api/organizations/{org}/domains/{uuid}/', 'organization:read'],
  ['patch', '/api/organizations/{org}/domains/{uuid}/', 'organization:write'],
  ['delete', '/api/organizations/{org}/domains/{uuid}/', 'organization:write'],
  ['post', '/api/organizations/{org}/domains/{uuid}/verify/', 'organization:write'],
  ['get', '/api/organizations/{org}/domains/{uuid}/verification_attempts/', 'organization:read'],
  // batch exports
  ['get', '/api/organizations/{org}/batch_exports/', 'batch_export:read'],
  ['post', '/api/organizations/{org}/batch_exports/', 'batch_export:write'],
  ['get', '/api/organizations/{org}/batch_exports/{uuid}/', 'batch_export:read'],
  ['patch', '/api/organizations/{org}/batch_exports/{uuid}/', 'batch_export:write'],
  ['delete', '/api/organizations/{org}/batch_exports/{uuid}/', 'batch_export:write'],
  ['post', '/api/organizations/{org}/batch_exports/{uuid}/backfill/', 'batch_export:write'],
  ['post', '/api/organizations/{org}/batch_exports/{uuid}/pause/', 'batch_export:write'],
  ['post', '/api/organizations/{org}/batch_exports/{uuid}/unpause/', 'batch_export:write'],
  ['get', '/api/organizations/{org}/batch_exports/{uuid}/logs/', 'batch_export:read'],
  ['get', '/api/organizations/{org}/batch_exports/{uuid}/log_entries/', 'batch_export:read'],
  ['get', '/api/organizations/{org}/batch_exports/{uuid}/runs/', 'batch_export:read'],
  ['get', '/api/organizations/{org}/batch_exports/{uuid}/runs/{uuid}/', 'batch_export:read'],
  ['post', '/api/organizations/{org}/batch_exports/{uuid}/runs/{uuid}/cancel/', 'batch_export:write'],
  ['post', '/api/organizations/{org}/batch_exports/{uuid}/runs/{uuid}/retry/', 'batch_export:write'],
  // pipeline plugin groups
  ...PLUGIN_GROUPS.flatMap((group): Row[] => [
    ['get', `/api/organizations/{org}/${group}/`, 'plugin:read'],
    ['post', `/api/organizations/{org}/${group}/`, 'plugin:write'],
    ['get', `/api/organizations/{org}/${group}/{int}/`, 'plugin:read'],
    ['patch', `/api/organizations/{org}/${group}/{int}/`, 'plugin:write'],
    ['delete', `/api/organizations/{org}/${group}/{int}/`, 'plugin:write'],
    ['get', `/api/organizations/{org}/${group}/{int}/check_for_updates/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/{int}/source/`, 'plugin:read'],
    ['patch', `/api/organizations/{org}/${group}/{int}/update_source/`, 'plugin:write'],
    ['post', `/api/organizations/{org}/${group}/{int}/upgrade/`, 'plugin:write'],
    ['get', `/api/organizations/{org}/${group}/activity/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/exports_unsubscribe_configs/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/repository/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/unused/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/activity_log/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/unused_ids/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/{int}/source_files/`, 'plugin:read'],
    ['get', `/api/organizations/{org}/${group}/{int}/update_check/`, 'plugin:read'],
  ]),
  // projects
  ['get', '/api/projects/{project}/', 'project:read'],
  ['patch', '/api/projects/{project}/', 'project:write'],
  ['patch', '/api/projects/{project}/reset_token/', 'project:write'],
  // dashboards
  ['get', '/api/projects/{project}/dashboards/', 'dashboard:read'],
  ['post', '/api/projects/{project}/dashboards/', 'dashboard:write'],
  ['get', '/api/projects/{project}/dashboards/{int}/', 'dashboard:read'],
  ['patch', '/api/projects/{project}/dashboards/{int}/', 'dashboard:write'],
  ['delete', '/api/projects/{project}/dashboards/{int}/', 'dashboard:write'],
  ['patch', '/api/projects/{project}/dashboards/{int}/move_tile/', 'dashboard:write'],
  ['post', '/api/projects/{project}/dashboards/create_from_template_json/', 'dashboard:write'],
  ['get', '/api/projects/{project}/dashboards/{int}/collaborators/', 'dashboard:read'],
  ['post', '/api/projects/{project}/dashboards/{int}/collaborators/', 'dashboard:write'],
  ['delete', '/api/projects/{project}/dashboards/{int}/collaborators/{uuid}/', 'dashboard:write'],
  ['get', '/api/projects/{project}/dashboards/{int}/sharing/', 'sharing_configuration:read'],
  ['patch', '/api/projects/{project}/dashboards/{int}/sharing/', 'sharing_configuration:write'],
  ['post', '/api/projects/{project}/dashboards/{int}/sharing/refresh/', 'sharing_configuration:write'],
  // analytics read back
  ['get', '/api/projects/{project}/events/', 'query:read'],
  ['get', '/api/projects/{project}/persons/', 'person:read'],
  ['get', '/api/projects/{project}/groups/', 'group:read'],
  ['get', '/api/projects/{project}/event_definitions/', 'event_definition:read'],
  ['get', '/api/projects/{project}/usage/', 'organization:read'],
  // history: activity logs of every resource and of the organization
  ['get', '/api/organizations/{org}/activity/', 'activity_log:read'],
  ['get', '/api/organizations/{org}/members/{uuid}/activity/', 'activity_log:read'],
  ['get', '/api/organizations/{org}/invites/{uuid}/activity/', 'activity_log:read'],
  ['get', '/api/organizations/{org}/domains/{uuid}/activity/', 'activity_log:read'],
  ['get', '/api/organizations/{org}/batch_exports/{uuid}/activity/', 'activity_log:read'],
  ...PLUGIN_GROUPS.map((group): Row => ['get', `/api/organizations/{org}/${group}/{int}/activity/`, 'activity_log:read']),
  ['get', '/api/projects/{project}/dashboards/{int}/activity/', 'activity_log:read'],
];

