import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allProjections } from '../../projections';
import { currentSchemaVersion, upcast } from '../../src/commands/upcasting';
import { verifyInstallation } from '../../src/history/verification';
import { diffCollections, rebuildCollection, rebuildProjection } from '../../src/projections/rebuild';
import { startTestChronicle, TestChronicle } from '../support/chronicle';

/** Events as an older release wrote them (schema version 1), with this installation's ids filled in. */
function fixture(file: string, values: Record<string, string>) {
  let text = readFileSync(path.join(__dirname, '../fixtures', file), 'utf8');
  for (const [k, v] of Object.entries(values)) text = text.split(`{{${k}}}`).join(v);
  return JSON.parse(text) as { type: string; data: unknown; metadata: Record<string, unknown> }[];
}

describe('schema evolution and verification', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
  });
  afterAll(() => c.stop());

  it('reads events of an older schema version in the current shape, live and after a rebuild', async () => {
    const domainId = randomUUID();
    const events = fixture('domain-events-v1.json', { domainId, organizationId: c.organizationId, suffix: domainId.slice(0, 8) });
    const written = await c.services.eventStore.appendToStream(`domain-${domainId}`, events, { expectedRevision: 'no_stream' });
    await c.services.projections.waitFor(`domain-${domainId}`, written.position);

    const live = await c.api('get', `/api/organizations/${c.organizationId}/domains/${domainId}/verification_attempts/`).expect(200);
    const attempts = live.body.results ?? live.body;
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) expect(attempt).toMatchObject({ outcome: 'no_record', detail: expect.stringContaining('No matching TXT record') });

    const projection = allProjections.find((p) => p.name === 'verified_domains')!;
    await rebuildProjection(c.services, projection, { swap: false, fresh: true });
    expect(await diffCollections(c.services, 'verified_domains', rebuildCollection('verified_domains'))).toEqual([]);
    const rebuilt = await c.services.readStore.get('verified_domains__rebuild', domainId);
    expect(rebuilt!.verification_attempts.map((a: any) => a.outcome)).toEqual(['no_record', 'no_record']);
  });

  it('stamps new events with the current version, so they are not upcast again', async () => {
    expect(currentSchemaVersion('DomainVerificationFailed')).toBe(2);
    expect(currentSchemaVersion('DashboardCreated')).toBe(1);
    const current = { streamId: 'domain-x', id: 'e', type: 'DomainVerificationFailed', revision: 1n, position: 1n, created: new Date(), data: { recordName: 'r', outcome: 'error', detail: 'timeout', at: 'now' }, metadata: { schemaVersion: 2 } };
    expect(upcast(current)).toBe(current);
  });

  it('finds a corrupted read-model document and a stream that does not fold', async () => {
    const created = await c.api('post', `/api/projects/${c.projectId}/dashboards/`).send({ name: 'Honest' }).expect(201);
    const clean = await verifyInstallation(c.services);
    expect(clean.foldProblems).toEqual([]);
    expect(clean.readModelProblems).toEqual([]);
    expect(clean.streams).toBeGreaterThan(3);

    const doc = await c.services.readStore.get('dashboards', created.body.id);
    await c.services.readStore.commit([{ collection: 'dashboards', op: 'put', doc: { ...doc!, name: 'Tampered' } }]);
    await c.services.eventStore.appendToStream(`dashboard-${created.body.id}`, [{ type: 'DashboardTeleported', data: {} }]);
    const report = await verifyInstallation(c.services);
    expect(report.readModelProblems).toEqual([
      expect.objectContaining({ projection: 'dashboards', collection: 'dashboards', differences: [expect.objectContaining({ id: created.body.id, live: expect.objectContaining({ name: 'Tampered' }) })] }),
    ]);
    expect(report.foldProblems).toEqual([expect.objectContaining({ stream: `dashboard-${created.body.id}`, type: 'DashboardTeleported' })]);
  });
});
