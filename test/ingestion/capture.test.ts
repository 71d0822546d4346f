import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { ingestionStream } from '../../domain/ingestion/ingested-event';
import { addUser, PROJECT_KEY, startTestChronicle, TestChronicle } from '../support/chronicle';
import { eventually, makeEvent, storedUuids } from './helpers';

describe('POST /batch/', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
  });
  afterAll(() => c.stop());

  // supertest would JSON-encode a Buffer sent as application/json, so raw bytes go as octet-stream.
  const post = (path: string, body: unknown, type?: string) =>
    request(c.app)
      .post(path)
      .set('Content-Type', type ?? (Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/json'))
      .send(Buffer.isBuffer(body) ? body : typeof body === 'string' ? body : JSON.stringify(body));
  const eventsOf = async (query = '') => (await c.api('get', `/api/projects/${c.projectId}/events/${query}`).expect(200)).body;

  it('stores a gzip batch (recognised by its bytes, whatever the content type) and lists it newest first', async () => {
    const older = makeEvent({ event: 'gz-old', timestamp: '2024-01-01T00:00:00.000Z' });
    const newer = makeEvent({ event: 'gz-new', timestamp: '2024-01-02T00:00:00.000Z' });
    const body = gzipSync(JSON.stringify({ api_key: PROJECT_KEY, batch: [older, newer] }));
    await post('/batch/', body, 'text/plain').expect(200, { status: 1 });
    const listed = await eventually(async () => {
      const page = await eventsOf('?event=gz-old');
      return page.count === 1 && page;
    });
    expect(listed.results[0]).toEqual({
      id: older.uuid,
      uuid: older.uuid,
      event: 'gz-old',
      distinct_id: 'user-1',
      properties: { $current_url: 'https://example.com/', distinct_id: 'user-1' },
      timestamp: '2024-01-01T00:00:00.000Z',
    });
    const both = await eventually(async () => {
      const page = await eventsOf('?after=2023-12-31T00:00:00Z&before=2024-01-03T00:00:00Z');
      return page.count === 2 && page;
    });
    expect(both.results.map((e: any) => e.event)).toEqual(['gz-new', 'gz-old']);
  });

  it('takes Content-Encoding: gzip, a bare array, one event on /capture/ and /e/, token in the event', async () => {
    await post('/batch/', gzipSync(JSON.stringify({ token: PROJECT_KEY, batch: [makeEvent({ event: 'enc' })] })))
      .set('Content-Encoding', 'gzip')
      .expect(200);
    await post('/batch/', [makeEvent({ event: 'arr', api_key: PROJECT_KEY })]).expect(200);
    await post('/capture/', { ...makeEvent({ event: 'single' }), api_key: PROJECT_KEY }).expect(200, { status: 1 });
    await post('/e/', { ...makeEvent({ event: 'single-e', distinct_id: undefined }), properties: { token: PROJECT_KEY, distinct_id: 'p-only' } }).expect(200);
    for (const name of ['enc', 'arr', 'single', 'single-e']) await eventually(async () => (await eventsOf(`?event=${name}`)).count === 1);
    const pOnly = await eventsOf('?event=single-e');
    expect(pOnly.results[0].distinct_id).toBe('p-only');
    expect((await eventsOf('?distinct_id=p-only')).count).toBe(1);
  });

  it('refuses missing, unknown and personal keys with 401', async () => {
    const missing = await post('/batch/', { batch: [makeEvent()] }).expect(401);
    expect(missing.body).toMatchObject({ type: 'authentication_error', code: 'missing_api_key' });
    const unknown = await post('/batch/', { api_key: 'phc_unknown', batch: [makeEvent()] }).expect(401);
    expect(unknown.body).toMatchObject({ code: 'invalid_api_key', detail: 'Project API key invalid. You can find your project API key in PostHog project settings.' });
    const personal = await post('/batch/', { api_key: 'phx_personal', batch: [makeEvent()] }).expect(401);
    expect(personal.body).toMatchObject({ code: 'personal_api_key', detail: 'Provided API key is not valid: personal_api_key' });
  });

  it('refuses a whole batch for one bad event, naming its index and field', async () => {
    const before = (await storedUuids(c.services.eventStore, c.projectId)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ distinct_id: undefined }, 'batch__2__distinct_id'],
      [{ distinct_id: '' }, 'batch__2__distinct_id'],
      [{ event: undefined }, 'batch__2__event'],
      [{ timestamp: 'yesterday' }, 'batch__2__timestamp'],
      [{ uuid: 'not-a-uuid' }, 'batch__2__uuid'],
    ];
    for (const [override, attr] of cases) {
      const res = await post('/batch/', { api_key: PROJECT_KEY, batch: [makeEvent(), makeEvent(), makeEvent(override)] }).expect(400);
      expect(res.body).toMatchObject({ type: 'validation_error', attr });
    }
    const nul = await post('/batch/', { api_key: PROJECT_KEY, batch: [makeEvent(), null] }).expect(400);
    expect(nul.body.attr).toBe('batch__1');
    await post('/batch/', { api_key: PROJECT_KEY, batch: [] }).expect(400);
    const bad = await post('/batch/', '{"api_key": "phc_', 'application/json').expect(400);
    expect(bad.body.code).toBe('invalid_payload');
    await post('/batch/', Buffer.alloc(0)).expect(400);
    expect((await storedUuids(c.services.eventStore, c.projectId)).length).toBe(before);
  });

  it('refuses bodies over 20 MiB, compressed or once decompressed, with 413', async () => {
    const huge = Buffer.alloc(21 * 1024 * 1024, 0x20);
    const res = await post('/batch/', huge).expect(413);
    expect(res.body.code).toBe('payload_too_large');
    const bomb = gzipSync(Buffer.alloc(21 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await post('/batch/', bomb).expect(413);
  });

  it('corrects clock skew with sent_at and keeps a given uuid', async () => {
    const e = makeEvent({ timestamp: '2020-01-01T00:00:10.000Z' });
    await post('/batch/', { api_key: PROJECT_KEY, sent_at: '2020-01-01T00:00:00.000Z', batch: [e] }).expect(200);
    const stored = (await c.services.eventStore.readStream(ingestionStream(c.projectId))).find((s) => s.id === e.uuid)!;
    expect(stored.data.uuid).toBe(e.uuid);
    expect(Date.parse(stored.data.timestamp) - Date.parse(stored.data.received_at)).toBe(10_000);
  });

  it('generates a uuid when none is given', async () => {
    const e = makeEvent({ event: 'no-uuid', uuid: undefined });
    await post('/batch/', { api_key: PROJECT_KEY, batch: [e] }).expect(200);
    const page = await eventually(async () => {
      const p = await eventsOf('?event=no-uuid');
      return p.count === 1 && p;
    });
    expect(page.results[0].uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('stores a resent batch, and a uuid repeated inside a batch, once', async () => {
    const batch = [makeEvent({ event: 'resent' }), makeEvent({ event: 'resent' })];
    const twice = { ...batch[0] };
    await post('/batch/', { api_key: PROJECT_KEY, batch: [...batch, twice] }).expect(200);
    await post('/batch/', { api_key: PROJECT_KEY, batch }).expect(200);
    await post('/batch/', { api_key: PROJECT_KEY, batch: [batch[1], makeEvent({ event: 'resent' })] }).expect(200);
    const uuids = await storedUuids(c.services.eventStore, c.projectId);
    expect(uuids.filter((u) => u === batch[0].uuid)).toHaveLength(1);
    expect(uuids.filter((u) => u === batch[1].uuid)).toHaveLength(1);
    await eventually(async () => (await eventsOf('?event=resent')).count === 3);
  });

  it('splits a batch bigger than an EventStoreDB append into several appends, all stored', async () => {
    const batch = Array.from({ length: 3000 }, () => makeEvent({ event: 'big' }, 450));
    expect(JSON.stringify(batch).length).toBeGreaterThan(1024 * 1024);
    await post('/batch/', gzipSync(JSON.stringify({ api_key: PROJECT_KEY, batch }))).expect(200);
    const stored = new Set(await storedUuids(c.services.eventStore, c.projectId));
    expect(batch.every((e) => stored.has(e.uuid))).toBe(true);
    const page = await eventually(async () => {
      const p = await eventsOf('?event=big&limit=10');
      return p.count === 3000 && p;
    });
    expect(page.results).toHaveLength(10);
    expect(page.next).toContain('offset=10');
  });

  it('counts historical events apart from billable ones per day', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const usage = async () => (await c.api('get', `/api/projects/${c.projectId}/usage/?date_from=${today}&date_to=${today}`).expect(200)).body;
    const start = await eventually(async () => {
      const u = await usage();
      return u.results.length === 1 && (await c.services.projections.isCaughtUp()) && u;
    });
    await new Promise((r) => setTimeout(r, 300));
    const base = (await usage()).results[0];
    await post('/batch/', { api_key: PROJECT_KEY, historical_migration: true, batch: [makeEvent({ timestamp: '2019-05-05T00:00:00Z' }), makeEvent()] }).expect(200);
    await post('/batch/', { api_key: PROJECT_KEY, batch: [makeEvent()] }).expect(200);
    const after = await eventually(async () => {
      const u = (await usage()).results[0];
      return u.historical_events === base.historical_events + 2 && u.billable_events === base.billable_events + 1 && u;
    });
    expect(after.date).toBe(today);
    expect(start.results[0].date).toBe(today);
    const stored = (await c.services.eventStore.readStream(ingestionStream(c.projectId), { direction: 'backwards', maxCount: 3 })).map((e) => e.data.historical_migration);
    expect(stored).toEqual([false, true, true]);
    await c.api('get', `/api/projects/${c.projectId}/usage/?date_from=yesterday`).expect(400);
  });

  it('guards the read endpoints with their scopes and project access', async () => {
    const reader = await addUser(c, { scopes: ['dashboard:read'], organizationId: c.organizationId });
    for (const [path, scope] of [
      ['events', 'query:read'],
      ['persons', 'person:read'],
      ['groups', 'group:read'],
      ['event_definitions', 'event_definition:read'],
      ['usage', 'organization:read'],
    ]) {
      const res = await c.api('get', `/api/projects/${c.projectId}/${path}/`, reader.key).expect(403);
      expect(res.body.detail).toBe(`API key missing required scope '${scope}'`);
    }
    const outsider = await addUser(c, { scopes: ['*'] });
    await c.api('get', `/api/projects/${c.projectId}/events/`, outsider.key).expect(403);
    await c.api('get', `/api/projects/999999/events/`).expect(404);
    const badDate = await c.api('get', `/api/projects/${c.projectId}/events/?after=notadate`).expect(400);
    expect(badDate.body).toMatchObject({ type: 'validation_error', attr: 'after' });
  });
});
