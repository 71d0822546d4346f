import { startTestChronicle, TestChronicle } from '../support/chronicle';

describe('dashboards under concurrent writes', () => {
  let c: TestChronicle;
  let url: string;

  beforeAll(async () => {
    c = await startTestChronicle();
    url = `/api/projects/${c.projectId}/dashboards/`;
  });
  afterAll(() => c.stop());

  it('loses no acknowledged tile when 20 PATCHes hit one dashboard at once', async () => {
    const { body } = await c.api('post', url).send({ name: 'Busy' }).expect(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.api('patch', `${url}${body.id}/`).send({ tiles: [{ text: { body: `tile ${i}` } }] })),
    );
    for (const a of answers) expect([200, 409, 412]).toContain(a.status);
    const acknowledged = answers.flatMap((a, i) => (a.status === 200 ? [`tile ${i}`] : []));
    expect(acknowledged.length).toBeGreaterThan(0);
    const final = await c.api('get', `${url}${body.id}/`).expect(200);
    const bodies = final.body.tiles.map((t: any) => t.text.body);
    for (const tile of acknowledged) expect(bodies).toContain(tile);
    expect(new Set(final.body.tiles.map((t: any) => t.id)).size).toBe(final.body.tiles.length);
  });

  it('gives 200 concurrent creates 200 distinct ids', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => c.api('post', url).send({ name: `d${i}` })));
    for (const a of answers) expect(a.status).toBe(201);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(200);
    const list = await c.api('get', `${url}?limit=1000`).expect(200);
    expect(list.body.count).toBeGreaterThanOrEqual(200);
  });
});
