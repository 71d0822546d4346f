import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { PostHog } from 'posthog-node';
import { closeServer } from '../../src/chronicle';
import { PROJECT_KEY, startTestChronicle, TestChronicle } from '../support/chronicle';
import { eventually } from './helpers';

/** The official Node client against a real port: what a user's app or migration script does. */
describe('posthog-node as a client', () => {
  let c: TestChronicle;
  let server: Server;
  let host: string;
  const encodings: string[] = [];
  beforeAll(async () => {
    c = await startTestChronicle();
    const outer = express();
    outer.use((req, _res, next) => {
      if (req.path.startsWith('/batch')) encodings.push(String(req.headers['content-encoding']));
      next();
    });
    outer.use(c.app);
    server = outer.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await closeServer(server);
    await c.stop();
  });

  const get = async (path: string) => (await c.api('get', `/api/projects/${c.projectId}/${path}`).expect(200)).body;

  it('delivers live events, identify, alias and group updates, gzip-compressed, readable back', async () => {
    const client = new PostHog(PROJECT_KEY, { host, flushAt: 5, flushInterval: 0 });
    for (let i = 0; i < 12; i++) client.capture({ distinctId: 'anon-42', event: 'clicked', properties: { i } });
    client.identify({ distinctId: 'user-42', properties: { $set: { email: 'u42@example.com' }, $set_once: { signup: 'web' } } });
    client.capture({ distinctId: 'user-42', event: '$identify', properties: { $anon_distinct_id: 'anon-42' } });
    client.alias({ distinctId: 'user-42', alias: 'legacy-42' });
    client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { plan: 'enterprise' } });
    await client.shutdown();
    expect(encodings.length).toBeGreaterThan(0);
    expect(encodings.every((e) => e === 'gzip')).toBe(true);

    const clicks = await eventually(async () => {
      const page = await get('events/?event=clicked&distinct_id=anon-42');
      return page.count === 12 && page;
    });
    expect(clicks.results.map((e: any) => e.properties.i).sort((a: number, b: number) => a - b)).toEqual([...Array(12).keys()]);
    const person = await eventually(async () => {
      const page = await get('persons/?distinct_id=anon-42');
      return page.results[0]?.distinct_ids.length === 3 && page.results[0];
    });
    expect(person.distinct_ids[0]).toBe('user-42');
    expect(person.distinct_ids.sort()).toEqual(['anon-42', 'legacy-42', 'user-42']);
    expect(person.properties).toMatchObject({ email: 'u42@example.com', signup: 'web' });
    const groups = await eventually(async () => {
      const page = await get('groups/?group_type=company');
      return page.count === 1 && page;
    });
    expect(groups.results[0]).toMatchObject({ group_type: 'company', group_key: 'acme', group_properties: { plan: 'enterprise' } });
    const definitions = await eventually(async () => {
      const page = await get('event_definitions/');
      return page.results.find((d: any) => d.name === 'clicked' && d.volume === 12) && page;
    });
    expect(definitions.results.map((d: any) => d.name)).toEqual(expect.arrayContaining(['clicked', '$identify', '$create_alias', '$groupidentify']));
  });

  it('imports history with historicalMigration: kept out of billable usage, old timestamps kept, state ends right', async () => {
    const client = new PostHog(PROJECT_KEY, { host, historicalMigration: true, flushAt: 50, flushInterval: 0 });
    const base = Date.parse('2023-06-01T00:00:00Z');
    for (let i = 0; i < 30; i++) {
      client.capture({ distinctId: 'old-user', event: 'imported', timestamp: new Date(base + i * 60_000), properties: { $set: { step: i } } });
    }
    // An older profile update sent last must not overwrite the newer ones.
    client.identify({ distinctId: 'old-user', properties: { $set: { step: -1 } } });
    await client.shutdown();
    const imported = await eventually(async () => {
      const page = await get('events/?event=imported&limit=100');
      return page.count === 30 && page;
    });
    expect(imported.results[0].timestamp).toBe(new Date(base + 29 * 60_000).toISOString());
    expect(imported.results[29].timestamp).toBe(new Date(base).toISOString());
    const today = new Date().toISOString().slice(0, 10);
    const usage = await eventually(async () => {
      const u = await get(`usage/?date_from=${today}&date_to=${today}`);
      return u.results[0]?.historical_events === 31 && u;
    });
    expect(usage.results[0].billable_events).toBeGreaterThanOrEqual(16);
    const person = await eventually(async () => (await get('persons/?distinct_id=old-user')).results[0]);
    // identify() was stamped now, so it is the newest $set: that is the reference's behaviour too.
    expect(person.properties.step).toBe(-1);
  });
});
