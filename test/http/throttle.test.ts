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

describe('client addresses', () => {
  let c: TestChronicle;
  beforeAll(async () => {
    c = await startTestChronicle();
  });
  afterAll(() => c.stop());

  it('ignores X-Forwarded-For unless TRUST_PROXY says a proxy stands in front, so a client cannot dodge the login throttle', async () => {
    const request = (await import('supertest')).default;
    for (let i = 0; i < 10; i++) {
      await request(c.app).post('/api/login/').set('X-Forwarded-For', `198.51.100.${i}`).send({ email: `nobody${i}@example.com`, password: 'wrong password' }).expect(400);
    }
    const res = await request(c.app).post('/api/login/').set('X-Forwarded-For', '198.51.100.99').send({ email: 'someone@example.com', password: 'wrong password' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ type: 'throttled_error' });
  });
});
