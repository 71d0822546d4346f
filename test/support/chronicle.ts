import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Chronicle, startChronicle } from '../../src/chronicle';
import { loadConfig } from '../../src/config';
import { createPersonalApiKey, createUser } from '../../src/identity/provisioning';
import { hashPassword } from '../../src/identity/secrets';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { Logger } from '../../src/logger';

export const ADMIN_KEY = 'phx_testadminkey0000000000000000000000000000000';
export const PROJECT_KEY = 'phc_testprojectkey00000000000000000000000000000';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export type TestChronicle = Chronicle & {
  dataDir: string;
  projectId: number;
  organizationId: string;
  /** supertest on the real express app, with the bootstrap key (scope '*'). */
  api: (method: 'get' | 'post' | 'patch' | 'put' | 'delete', url: string, key?: string) => request.Test;
  /** Stops the service; keeps DATA_DIR unless `wipe`. */
  stop(wipe?: boolean): Promise<void>;
};

export function tempDataDir() {
  return mkdtempSync(path.join(tmpdir(), 'chronicle-test-'));
}

/** A real Chronicle on the embedded stores in a fresh (or the given) DATA_DIR. */
export async function startTestChronicle(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<TestChronicle> {
  const dataDir = options.dataDir ?? tempDataDir();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_PERSONAL_API_KEY: ADMIN_KEY,
    BOOTSTRAP_PROJECT_API_KEY: PROJECT_KEY,
    BOOTSTRAP_PASSWORD: ADMIN_PASSWORD,
    ...options.env,
  });
  const chronicle = await startChronicle(config, new Logger('silent'));
  const me = await request(chronicle.app).get('/api/users/@me/').set('Authorization', `Bearer ${ADMIN_KEY}`);
  return {
    ...chronicle,
    dataDir,
    projectId: me.body.team.id,
    organizationId: me.body.organization.id,
    api: (method, url, key = ADMIN_KEY) => request(chronicle.app)[method](url).set('Authorization', `Bearer ${key}`),
    async stop(wipe = true) {
      await chronicle.close();
      if (wipe) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another user with a key of the given scopes, optionally a member of an organization at a level. Goes through
 * the same commands the API uses, so the read models are the real ones.
 */
export async function addUser(
  chronicle: Chronicle,
  options: { email?: string; scopes?: string[]; organizationId?: string; level?: number; scopedOrganizations?: string[]; scopedTeams?: number[] } = {},
) {
  const services = chronicle.services;
  const metadata = { now: new Date().toISOString() };
  const email = options.email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const user = await createUser(services, metadata, { email, firstName: 'Test', passwordHash: hashPassword(ADMIN_PASSWORD) });
  if (options.organizationId) {
    await services.commands.handle(organizationDecider, organizationStream(options.organizationId), {
      type: 'AddOrganizationMember',
      data: { userId: user.id, userUuid: user.uuid, membershipId: crypto.randomUUID(), level: options.level ?? 1 },
      metadata,
    });
  }
  const key = await createPersonalApiKey(services, metadata, {
    userId: user.id,
    label: 'test',
    scopes: options.scopes ?? ['*'],
    scopedOrganizations: options.scopedOrganizations,
    scopedTeams: options.scopedTeams,
  });
  return { ...user, email, key: key.value };
}
