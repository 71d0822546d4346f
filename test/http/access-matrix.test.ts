import request from 'supertest';
import { createPersonalApiKey } from '../../src/identity/provisioning';
import type { Scope } from '../../src/identity/scopes';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

/**
 * Every authenticated endpoint of the service × the four ways a caller can lack access. Adding an endpoint is one
 * line in ENDPOINTS: method, path, scope. Placeholders: {org} and {project} are the bootstrap organization and
 * project; {id}, {uuid}, {int} name objects that need not exist, because every access check comes before any
 * lookup (decisions.md: 401, then 403, then 404).
 *
 * The kind of endpoint follows from its path: /api/organizations/{org}/… is organization-scoped, /api/projects/
 * {project}/… project-scoped, anything else belongs to the caller (their keys, their organization list).
 * `session`: only a logged-in person may call it, never a key.
 * Public endpoints (no authentication): GET /_health, GET /_readyz, POST /api/login/, POST /api/signup/{id}/, POST /batch/.
 */
type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Row = [method: Method, path: string, scope: Scope | null | 'session'];

const PLUGIN_GROUPS = ['pipeline_destinations', 'pipeline_frontend_apps', 'pipeline_import_apps', 'pipeline_transformations'];

const ENDPOINTS: Row[] = [
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

const kindOf = (path: string) => (path.includes('{org}') ? 'organization' : path.includes('{project}') ? 'project' : 'caller');
const envelope = (status: number, code: string, detail: string) => ({
  type: status === 401 || status === 403 ? 'authentication_error' : 'invalid_request',
  code,
  detail,
  attr: null,
});

describe('access matrix', () => {
  let c: TestChronicle;
  const keys = { noScope: '', stranger: '', scopedToOtherOrg: '', scopedToOtherProject: '' };
  let otherOrg: string;
  let otherProject: number;

  beforeAll(async () => {
    c = await startTestChronicle();
    const stranger = await addUser(c);
    const created = await c.api('post', '/api/organizations/', stranger.key).send({ name: 'Elsewhere' }).expect(201);
    otherOrg = created.body.id;
    otherProject = created.body.teams[0].id;
    keys.stranger = stranger.key;
    const me = (await c.api('get', '/api/users/@me/').expect(200)).body;
    const make = async (options: { scopes: string[]; scopedOrganizations?: string[]; scopedTeams?: number[] }) =>
      (await createPersonalApiKey(c.services, { now: new Date().toISOString() }, { userId: me.id, label: 'matrix', ...options })).value;
    // No scope at all, so every scoped row is refused for the scope alone.
    keys.noScope = await make({ scopes: [] });
    keys.scopedToOtherOrg = await make({ scopes: ['*'], scopedOrganizations: [otherOrg] });
    keys.scopedToOtherProject = await make({ scopes: ['*'], scopedTeams: [otherProject] });
  });
  afterAll(() => c.stop());

  const fill = (path: string) =>
    path
      .replace('{org}', c.organizationId)
      .replace('{project}', String(c.projectId))
      .replaceAll('{uuid}', '0b5b9a52-4f5e-4a43-9b43-3c1b8f6f0c11')
      .replace('{int}', '987654');

  const call = (method: Method, path: string, key?: string) => {
    const r = request(c.app)[method](fill(path));
    if (key) r.set('Authorization', `Bearer ${key}`);
    return method === 'get' || method === 'delete' ? r : r.send({});
  };

  it.each(ENDPOINTS)('%s %s (%s)', async (method, path, scope) => {
    const kind = kindOf(path);
    const cell = async (key: string | undefined, status: number, code: string, detail?: string) => {
      const res = await call(method, path, key);
      expect({ key: key ?? 'none', status: res.status }).toEqual({ key: key ?? 'none', status });
      if (detail) expect(res.body).toEqual(envelope(status, code, detail));
      else expect(res.body).toMatchObject({ type: 'authentication_error', code, attr: null });
    };

    await cell(undefined, 401, 'not_authenticated', 'Authentication credentials were not provided.');

    if (scope === 'session') await cell(keys.noScope, 403, 'permission_denied', 'This action does not support personal API key access');
    else if (scope) await cell(keys.noScope, 403, 'permission_denied', `API key missing required scope '${scope}'`);

    if (kind === 'caller') return;
    // A member of another organization only: not a member here.
    await cell(keys.stranger, 403, 'permission_denied');
    if (kind === 'organization') {
      await cell(keys.scopedToOtherOrg, 403, 'permission_denied', `API key does not have access to the requested organization: ID ${c.organizationId}.`);
      await cell(keys.scopedToOtherProject, 403, 'permission_denied', 'API keys with scoped projects are only supported on project-based endpoints.');
    } else {
      await cell(keys.scopedToOtherProject, 403, 'permission_denied', `API key does not have access to the requested project: ID ${c.projectId}.`);
      await cell(keys.scopedToOtherOrg, 403, 'permission_denied', `API key does not have access to the requested organization: ID ${c.organizationId}.`);
    }
  });

  it('lets a key of another organization see only its own things on the caller endpoints', async () => {
    const orgs = await c.api('get', '/api/organizations/', keys.stranger).expect(200);
    expect(orgs.body.results.map((o: { id: string }) => o.id)).toEqual([otherOrg]);
    const projects = await c.api('get', '/api/projects/', keys.stranger).expect(200);
    expect(projects.body.results.map((p: { id: number }) => p.id)).toEqual([otherProject]);
    const scoped = await c.api('get', '/api/organizations/', keys.scopedToOtherOrg).expect(200);
    expect(scoped.body.count).toBe(0);
  });
});
