import { ENDPOINTS } from '../support/endpoints';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

/**
 * No input produces a 500: every write endpoint of the service, pointed at real objects so handlers run past
 * their lookups, gets bodies of every wrong shape; every read endpoint gets nonsense query parameters. Errors must
 * come in the envelope.
 */
const BODIES: unknown[] = [
  [],
  'a string',
  12345,
  null,
  { name: { $gt: 1 }, tags: 'not a list', level: 'x', domain: [], destination: 'x', interval: 5, capabilities: [1], filters: [], tiles: {} },
  { name: 'x'.repeat(10_000), description: null, target_email: 7, user_uuid: 'nope', level: 999, enabled: 'yes', scopes: ['nope:read'] },
  { tiles: [{ id: 'x', text: { body: 5 } }, null], tile: { id: -1 }, toDashboard: 'x', template: { tiles: [] } },
  { destination: { type: 'S3', config: { bucket_name: 1 } }, start_at: 'yesterday', end_at: 3, backfill: 'sure' },
  { a: { b: { c: { d: { e: { f: [[[[[]]]]] } } } } }, '__proto__': { polluted: true }, constructor: { prototype: {} } },
];

describe('bad input never answers 500', () => {
  let c: TestChronicle;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    c = await startTestChronicle();
    const org = `/api/organizations/${c.organizationId}`;
    ids.dashboard = String((await c.api('post', `/api/projects/${c.projectId}/dashboards/`).send({ name: 'Target' })).body.id);
    ids.domain = (await c.api('post', `${org}/domains/`).send({ domain: 'bad-input.example.com' })).body.id;
    ids.plugin = String((await c.api('post', `${org}/pipeline_destinations/`).send({ name: 'P', plugin_type: 'source' })).body.id);
    ids.export = (await c.api('post', `${org}/batch_exports/`).send({ name: 'E', destination: { type: 'NoOp', config: {} }, interval: 'hour' })).body.id;
    ids.invite = (await c.api('post', `${org}/invites/`).send({ target_email: 'bad-input@example.com' })).body.id;
    ids.member = (await addUser(c, { organizationId: c.organizationId })).uuid;
    for (const [name, id] of Object.entries(ids)) expect({ name, id: typeof id === 'string' && id !== 'undefined' }).toEqual({ name, id: true });
  });
  afterAll(() => c.stop());

  const fill = (path: string) => {
    const objectId = path.includes('/dashboards/')
      ? ids.dashboard
      : path.includes('/pipeline_')
        ? ids.plugin
        : path.includes('/domains/')
          ? ids.domain
          : path.includes('/batch_exports/')
            ? ids.export
            : path.includes('/invites/')
              ? ids.invite
              : path.includes('/members/')
                ? ids.member
                : '00000000-0000-4000-8000-000000000000';
    return path
      .replace('{org}', c.organizationId)
      .replace('{project}', String(c.projectId))
      .replace(/\{(int|uuid|id)\}/, objectId)
      .replace(/\{(int|uuid|id)\}/g, '00000000-0000-4000-8000-000000000000');
  };

  const expectClean = (res: { status: number; body: any; text: string }, label: string) => {
    expect({ label, status: res.status < 500 ? 'no 500' : res.status }).toEqual({ label, status: 'no 500' });
    if (res.status >= 400 && res.text) expect(Object.keys(res.body).sort()).toEqual(['attr', 'code', 'detail', 'type']);
  };

  const writes = ENDPOINTS.filter(([method, path]) => (method === 'post' || method === 'patch') && !path.endsWith('/logout/'));
  it.each(writes.map(([method, path]) => [method, path]))('%s %s with malformed bodies', async (method, path) => {
    const url = fill(path);
    for (const body of BODIES) {
      const res = await c.api(method as 'post' | 'patch', url).set('Content-Type', 'application/json').send(JSON.stringify(body));
      expectClean(res, `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`);
    }
    expectClean(await c.api(method as 'post' | 'patch', url).set('Content-Type', 'application/json').send('{"broken": '), `${path} broken JSON`);
    expectClean(await c.api(method as 'post' | 'patch', url).set('Content-Type', 'text/plain').send('hello'), `${path} text/plain`);
  });

  const reads = ENDPOINTS.filter(([method]) => method === 'get');
  it.each(reads.map(([, path]) => [path]))('GET %s with nonsense query parameters', async (path) => {
    const url = fill(path);
    for (const query of ['limit=-5&offset=abc', 'limit=99999999999999999999&offset=-1', 'after=notadate&before=2026-13-45', 'as_of=nope', 'revision=-1', 'revision=1e400', 'status=%00&level=%FF%FE', 'search=' + 'x'.repeat(5000), 'event[]=a&distinct_id[$ne]=b']) {
      expectClean(await c.api('get', `${url}?${query}`), `${path}?${query.slice(0, 40)}`);
    }
  });
});
