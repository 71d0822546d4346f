import request from 'supertest';
import { createPersonalApiKey } from '../../src/identity/provisioning';
import type { Scope } from '../../src/identity/scopes';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';
import { ENDPOINTS, type Method } from '../support/endpoints';

/**
 * Every authenticated endpoint of the service (test/support/endpoints.ts) × the four ways a caller can lack
 * access. Object ids in paths need not exist, because every access check comes before any lookup (decisions.md:
 * 401, then 403, then 404). The kind of endpoint follows from its path: /api/organizations/{org}/… is
 * organization-scoped, /api/projects/{project}/… project-scoped, anything else belongs to the caller.
 */
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
