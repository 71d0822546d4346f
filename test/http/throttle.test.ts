import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';

describe('API rate limit per personal key', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle({ env: { API_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => c.stop());

  it('answers 429 throttled_error with Retry-After once the budget is spent', async () => {
    const { key } = await addUser(c, { organizationId: c.organizationId });
    for (let i = 0; i < 3; i++) await c.api('get', '/api/organizations/', key).expect(200);
    const res = await c.api('get', '/api/organizations/', key).expect(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.body).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
    // The budget is per key: another key is unaffected.
    const other = await addUser(c, { organizationId: c.organizationId });
    await c.api('get', '/api/organizations/', other.key).expect(200);
  });
});
