import { allProjections } from '../../projections';
import { diffCollections, rebuildCollection, rebuildProjection } from '../../src/projections/rebuild';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

/** Drives a little of everything the service exposes, so every read model has documents to compare. */
async function someActivity(c: TestChronicle) {
  await addUser(c, { organizationId: c.organizationId, level: 8 });
  await addUser(c, { organizationId: c.organizationId, level: 1, scopes: ['dashboard:read'] });
  for (let i = 0; i < 3; i++) await c.api('post', `/api/projects/${c.projectId}/dashboards/`).send({ name: `Board ${i}`, tags: ['a', 'B '] });
}

describe('rebuilding read models', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
    await someActivity(c);
  });
  afterAll(() => c.stop());

  it('yields read models equal to the live ones, for every projection', async () => {
    for (const projection of allProjections) {
      await rebuildProjection(c.services, projection, { swap: false, fresh: true });
      for (const collection of Object.keys(projection.collections)) {
        expect({ collection, differences: await diffCollections(c.services, collection, rebuildCollection(collection)) }).toEqual({ collection, differences: [] });
      }
    }
  });

  it('finds a corrupted live document', async () => {
    const [user] = await c.services.readStore.find('users', {}, { limit: 1 });
    await c.services.readStore.commit([{ collection: 'users', op: 'put', doc: { ...user, email: 'tampered@example.com' } }]);
    const users = allProjections.find((p) => p.name === 'users')!;
    await rebuildProjection(c.services, users, { swap: false, fresh: true });
    const differences = await diffCollections(c.services, 'users', rebuildCollection('users'));
    expect(differences).toEqual([expect.objectContaining({ id: user._id, rebuilt: expect.objectContaining({ email: user.email }) })]);
  });

  it('swaps the rebuilt models in while the service keeps answering', async () => {
    for (const projection of allProjections) await rebuildProjection(c.services, projection, { swap: true, fresh: true });
    const me = await c.api('get', '/api/users/@me/').expect(200);
    expect(me.body.email).toBe('admin@localhost');
    const after = await c.api('post', `/api/projects/${c.projectId}/dashboards/`).send({ name: 'After rebuild' });
    expect([201, 200]).toContain(after.status);
    const orgs = await c.api('get', '/api/organizations/').expect(200);
    expect(orgs.body.results[0].member_count).toBe('3');
  });
});
