import { randomUUID } from 'node:crypto';
import { verifiedDomainDecider, verifiedDomainStream } from '../../domain/verified-domain';
import { addUser, startTestChronicle, TestChronicle } from '../support/chronicle';
import { DnsTestServer, startDnsServer } from '../support/dns-server';

describe('verified domains', () => {
  let c: TestChronicle;
  let dns: DnsTestServer;
  let url: string;
  let otherOrg: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    c = await startTestChronicle({ env: { DNS_SERVERS: dns.address } });
    url = `/api/organizations/${c.organizationId}/domains/`;
    const other = await c.api('post', '/api/organizations/').send({ name: 'Other org' });
    otherOrg = other.body.id;
  });
  afterAll(async () => {
    await c.stop();
    await dns.close();
  });

  const create = (domain: string, key?: string) => c.api('post', url, key).send({ domain });

  it('creates a domain with a fixed 43-character challenge and ignores SSO settings on create', async () => {
    const res = await c
      .api('post', url)
      .send({ domain: 'Create.Example.com', jit_provisioning_enabled: true, sso_enforcement: 'google-oauth2', saml_entity_id: 'e', unknown: 1 })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      domain: 'create.example.com',
      is_verified: false,
      verified_at: null,
      verification_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      jit_provisioning_enabled: false,
      sso_enforcement: '',
      has_saml: false,
      saml_entity_id: 'e',
      saml_acs_url: null,
      saml_x509_cert: null,
      last_verification_retry: null,
    });
    const again = await c.api('get', `${url}${res.body.id}/`).expect(200);
    expect(again.body).toEqual(res.body);
    await c.api('patch', `${url}${res.body.id}/`).send({ saml_acs_url: 'https://acs' }).expect(200);
    const after = await c.api('get', `${url}${res.body.id}/`).expect(200);
    expect(after.body.verification_challenge).toBe(res.body.verification_challenge);
  });

  it('refuses a malformed domain naming the field, and wrong types', async () => {
    for (const domain of ['not a domain', 'example', '-x.com', 'a..com', 'exa_mple.com']) {
      const res = await create(domain).expect(400);
      expect(res.body).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Please enter a valid domain or subdomain name.', attr: 'domain' });
    }
    const missing = await c.api('post', url).send({}).expect(400);
    expect(missing.body).toMatchObject({ code: 'required', attr: 'domain' });
    const wrongType = await c.api('post', url).send({ domain: 42 }).expect(400);
    expect(wrongType.body).toMatchObject({ type: 'validation_error', attr: 'domain' });
    const saml = await c.api('post', url).send({ domain: 'types.example.com', saml_entity_id: ['x'] }).expect(400);
    expect(saml.body.attr).toBe('saml_entity_id');
    const jit = await c.api('post', url).send({ domain: 'types.example.com', jit_provisioning_enabled: 'yes' }).expect(400);
    expect(jit.body.attr).toBe('jit_provisioning_enabled');
    const notJson = await c.api('post', url).set('Content-Type', 'application/json').send('{bad').expect(400);
    expect(notJson.body.type).toBe('invalid_request');
  });

  it('keeps names unique across organizations until the holder deletes its domain', async () => {
    const first = await create('unique.example.com').expect(201);
    const dup = await create('UNIQUE.example.com').expect(400);
    expect(dup.body).toEqual({ type: 'validation_error', code: 'unique', detail: 'domain with this domain already exists.', attr: 'domain' });
    const elsewhere = await c.api('post', `/api/organizations/${otherOrg}/domains/`).send({ domain: 'unique.example.com' }).expect(400);
    expect(elsewhere.body.code).toBe('unique');
    await c.api('delete', `${url}${first.body.id}/`).expect(204);
    await c.api('get', `${url}${first.body.id}/`).expect(404);
    const taken = await c.api('post', `/api/organizations/${otherOrg}/domains/`).send({ domain: 'unique.example.com' }).expect(201);
    await c.api('get', `${url}${taken.body.id}/`).expect(404);
  });

  it('gives a name to exactly one of many simultaneous creates, across organizations', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.api('post', i % 2 ? `/api/organizations/${otherOrg}/domains/` : url).send({ domain: 'race.example.com' })),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of attempts.filter((r) => r.status !== 201)) expect(r.body).toMatchObject({ type: 'validation_error', code: 'unique', attr: 'domain' });
  });

  it('frees the name of a domain whose deletion was not followed by its release (a crash in between)', async () => {
    const first = await create('crashed.example.com').expect(201);
    // Delete through the command alone, as if the process died before releasing the name.
    await c.services.commands.handle(verifiedDomainDecider, verifiedDomainStream(first.body.id), {
      type: 'DeleteDomain',
      data: { organizationId: c.organizationId, actorLevel: 15 },
      metadata: { now: new Date().toISOString() },
    });
    await create('crashed.example.com').expect(201);
  });

  it('lists the organization\'s domains ordered by domain, paginated', async () => {
    const org = (await c.api('post', '/api/organizations/').send({ name: 'List org' })).body.id;
    const listUrl = `/api/organizations/${org}/domains/`;
    for (const d of ['c.example.org', 'a.example.org', 'b.example.org']) await c.api('post', listUrl).send({ domain: d }).expect(201);
    const all = await c.api('get', listUrl).expect(200);
    expect(all.body.count).toBe(3);
    expect(all.body.results.map((r: any) => r.domain)).toEqual(['a.example.org', 'b.example.org', 'c.example.org']);
    const page = await c.api('get', `${listUrl}?limit=2&offset=1`).expect(200);
    expect(page.body.results.map((r: any) => r.domain)).toEqual(['b.example.org', 'c.example.org']);
    expect(page.body.next).toBeNull();
    expect(page.body.previous).toMatch(/limit=2/);
    const first = await c.api('get', `${listUrl}?limit=1`).expect(200);
    expect(first.body.next).toMatch(/^http.*limit=1&offset=1|offset=1.*limit=1/);
  });

  it('sets has_saml only when entity id, ACS URL and certificate are all set', async () => {
    const d = await create('saml.example.com').expect(201);
    const u = `${url}${d.body.id}/`;
    const two = await c.api('patch', u).send({ saml_entity_id: 'id', saml_acs_url: 'https://acs' }).expect(200);
    expect(two.body.has_saml).toBe(false);
    const three = await c.api('patch', u).send({ saml_x509_cert: 'CERT' }).expect(200);
    expect(three.body).toMatchObject({ has_saml: true, saml_entity_id: 'id', saml_acs_url: 'https://acs', saml_x509_cert: 'CERT' });
    const blank = await c.api('patch', u).send({ saml_x509_cert: '' }).expect(200);
    expect(blank.body.has_saml).toBe(false);
  });

  it('refuses SSO changes before verification, bad sso_enforcement values, and a new name', async () => {
    const d = await create('unverified.example.com').expect(201);
    const u = `${url}${d.body.id}/`;
    const jit = await c.api('patch', u).send({ jit_provisioning_enabled: true }).expect(400);
    expect(jit.body).toEqual({
      type: 'validation_error',
      code: 'verification_required',
      detail: 'This attribute cannot be updated until the domain is verified.',
      attr: 'jit_provisioning_enabled',
    });
    const sso = await c.api('patch', u).send({ sso_enforcement: 'saml' }).expect(400);
    expect(sso.body).toMatchObject({ code: 'verification_required', attr: 'sso_enforcement' });
    const choice = await c.api('patch', u).send({ sso_enforcement: 'okta' }).expect(400);
    expect(choice.body).toMatchObject({ code: 'invalid_choice', attr: 'sso_enforcement', detail: '"okta" is not a valid choice.' });
    await c.api('patch', u).send({ sso_enforcement: '', jit_provisioning_enabled: false, domain: 'Unverified.example.com' }).expect(200);
    const rename = await c.api('patch', u).send({ domain: 'renamed.example.com' }).expect(400);
    expect(rename.body.attr).toBe('domain');
  });

  it('verifies a domain whose TXT record carries the challenge, then allows SSO settings', async () => {
    const d = await create('verify.example.com').expect(201);
    dns.records.set('_chronicle-challenge.verify.example.com', ['unrelated', d.body.verification_challenge]);
    const res = await c.api('post', `${url}${d.body.id}/verify/`).send({}).expect(200);
    expect(res.text).toBe('');
    const after = await c.api('get', `${url}${d.body.id}/`).expect(200);
    expect(after.body).toMatchObject({ is_verified: true, verified_at: expect.stringMatching(/Z$/), last_verification_retry: null });
    const again = await c.api('post', `${url}${d.body.id}/verify/`).expect(400);
    expect(again.body).toEqual({ type: 'validation_error', code: 'already_verified', detail: 'This domain has already been verified.', attr: null });
    const sso = await c.api('patch', `${url}${d.body.id}/`).send({ jit_provisioning_enabled: true, sso_enforcement: 'google-oauth2' }).expect(200);
    expect(sso.body).toMatchObject({ jit_provisioning_enabled: true, sso_enforcement: 'google-oauth2' });
    const attempts = await c.api('get', `${url}${d.body.id}/verification_attempts/`).expect(200);
    expect(attempts.body).toEqual([
      expect.objectContaining({ outcome: 'verified', record_name: '_chronicle-challenge.verify.example.com' }),
    ]);
  });

  it('records failed attempts when the record is missing or different, answering 200', async () => {
    const d = await create('fail.example.com').expect(201);
    const verify = `${url}${d.body.id}/verify/`;
    const before = dns.queries;
    expect((await c.api('post', verify).expect(200)).text).toBe('');
    expect(dns.queries).toBeGreaterThan(before);
    const missing = await c.api('get', `${url}${d.body.id}/`).expect(200);
    expect(missing.body).toMatchObject({ is_verified: false, verified_at: null, last_verification_retry: expect.stringMatching(/Z$/) });
    dns.records.set('_chronicle-challenge.fail.example.com', ['not-the-challenge']);
    await c.api('post', verify).expect(200);
    const attempts = await c.api('get', `${url}${d.body.id}/verification_attempts/`).expect(200);
    expect(attempts.body.map((a: any) => a.outcome)).toEqual(['mismatch', 'no_record']);
    expect((await c.api('get', `${url}${d.body.id}/`)).body.is_verified).toBe(false);
  });

  it('counts a DNS server that refuses to answer as a failed attempt', async () => {
    const refusing = await startDnsServer({ refuse: true });
    const other = await startTestChronicle({ env: { DNS_SERVERS: refusing.address, DOMAIN_VERIFICATION_PREFIX: '_custom-prefix' } });
    try {
      const u = `/api/organizations/${other.organizationId}/domains/`;
      const d = await other.api('post', u).send({ domain: 'refused.example.com' }).expect(201);
      await other.api('post', `${u}${d.body.id}/verify/`).expect(200);
      const attempts = await other.api('get', `${u}${d.body.id}/verification_attempts/`).expect(200);
      expect(attempts.body).toEqual([
        expect.objectContaining({ outcome: 'error', record_name: '_custom-prefix.refused.example.com', detail: expect.stringContaining('REFUSED') }),
      ]);
      expect((await other.api('get', `${u}${d.body.id}/`)).body.last_verification_retry).not.toBeNull();
    } finally {
      await other.stop();
      await refusing.close();
    }
  });

  it('uses the configured prefix for the record name', async () => {
    const server = await startDnsServer();
    const other = await startTestChronicle({ env: { DNS_SERVERS: server.address, DOMAIN_VERIFICATION_PREFIX: '_custom-prefix' } });
    try {
      const u = `/api/organizations/${other.organizationId}/domains/`;
      const d = await other.api('post', u).send({ domain: 'prefix.example.com' }).expect(201);
      server.records.set('_custom-prefix.prefix.example.com', [d.body.verification_challenge]);
      await other.api('post', `${u}${d.body.id}/verify/`).expect(200);
      expect((await other.api('get', `${u}${d.body.id}/`)).body.is_verified).toBe(true);
    } finally {
      await other.stop();
      await server.close();
    }
  });

  it('lets members read but only admins write', async () => {
    const d = await create('members.example.com').expect(201);
    const member = await addUser(c, { organizationId: c.organizationId, level: 1 });
    await c.api('get', url, member.key).expect(200);
    await c.api('get', `${url}${d.body.id}/`, member.key).expect(200);
    const insufficient = { type: 'authentication_error', code: 'permission_denied', detail: 'Your organization access level is insufficient.', attr: null };
    expect((await c.api('post', url, member.key).send({ domain: 'x' }).expect(403)).body).toEqual(insufficient);
    expect((await c.api('patch', `${url}${d.body.id}/`, member.key).send({}).expect(403)).body).toEqual(insufficient);
    expect((await c.api('delete', `${url}${d.body.id}/`, member.key).expect(403)).body).toEqual(insufficient);
    expect((await c.api('post', `${url}${d.body.id}/verify/`, member.key).expect(403)).body).toEqual(insufficient);
    const admin = await addUser(c, { organizationId: c.organizationId, level: 8 });
    await c.api('patch', `${url}${d.body.id}/`, admin.key).send({ saml_entity_id: 'x' }).expect(200);
  });

  it('requires organization:read and organization:write scopes', async () => {
    const d = await create('scopes.example.com').expect(201);
    const reader = await addUser(c, { organizationId: c.organizationId, level: 15, scopes: ['organization:read'] });
    await c.api('get', url, reader.key).expect(200);
    await c.api('get', `${url}${d.body.id}/`, reader.key).expect(200);
    const denied = await c.api('post', url, reader.key).send({ domain: 'scoped.example.com' }).expect(403);
    expect(denied.body.detail).toBe("API key missing required scope 'organization:write'");
    await c.api('patch', `${url}${d.body.id}/`, reader.key).send({}).expect(403);
    await c.api('delete', `${url}${d.body.id}/`, reader.key).expect(403);
    await c.api('post', `${url}${d.body.id}/verify/`, reader.key).expect(403);
    const none = await addUser(c, { organizationId: c.organizationId, level: 15, scopes: ['dashboard:read'] });
    expect((await c.api('get', url, none.key).expect(403)).body.detail).toBe("API key missing required scope 'organization:read'");
    const writer = await addUser(c, { organizationId: c.organizationId, level: 15, scopes: ['organization:write'] });
    await c.api('get', url, writer.key).expect(200);
    await c.api('post', url, writer.key).send({ domain: 'scoped.example.com' }).expect(201);
  });

  it('hides other organizations\' domains and refuses non-members', async () => {
    const theirs = await c.api('post', `/api/organizations/${otherOrg}/domains/`).send({ domain: 'theirs.example.com' }).expect(201);
    await c.api('get', `${url}${theirs.body.id}/`).expect(404);
    await c.api('patch', `${url}${theirs.body.id}/`).send({}).expect(404);
    await c.api('post', `${url}${theirs.body.id}/verify/`).expect(404);
    await c.api('delete', `${url}${theirs.body.id}/`).expect(404);
    await c.api('get', `${url}${randomUUID()}/`).expect(404);
    await c.api('get', `${url}not-a-uuid/`).expect(404);
    const outsider = await addUser(c);
    await c.api('get', url, outsider.key).expect(403);
    await c.api('put', url).expect(405);
  });
});
