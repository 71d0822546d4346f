import { randomBytes } from 'node:crypto';
import { loadStream } from '../commands/command-handler';
import type { Services } from '../container';
import { createOrganization, createPersonalApiKey, createUser } from './provisioning';
import { hashPassword } from './secrets';

const BOOTSTRAP_STREAM = 'installation-bootstrap';

export type BootstrapResult = {
  email: string;
  password?: string;
  personalApiKey?: string;
  projectApiKey?: string;
  organizationId: string;
  projectId: number;
};

/**
 * First start with an empty store: one user, organization, project, personal API key (scope '*') and project
 * key, from BOOTSTRAP_* where set. The marker event is written last and checked first, so a restart creates
 * nothing new. Returns the generated secrets (to print once), or null when already bootstrapped.
 */
export async function bootstrap(services: Services): Promise<BootstrapResult | null> {
  if ((await loadStream(services.eventStore, BOOTSTRAP_STREAM)).length > 0) return null;
  const { config } = services;
  const metadata = { now: new Date().toISOString() };
  const password = config.BOOTSTRAP_PASSWORD ?? randomBytes(12).toString('base64url');
  const user = await createUser(services, metadata, { email: config.BOOTSTRAP_EMAIL, firstName: 'Admin', passwordHash: hashPassword(password) });
  const organization = await createOrganization(services, { ...metadata, userId: user.id }, {
    name: config.BOOTSTRAP_ORGANIZATION_NAME,
    owner: user,
    projectName: config.BOOTSTRAP_PROJECT_NAME,
    projectApiToken: config.BOOTSTRAP_PROJECT_API_KEY,
  });
  const key = await createPersonalApiKey(services, { ...metadata, userId: user.id }, {
    userId: user.id,
    label: 'Bootstrap key',
    scopes: ['*'],
    value: config.BOOTSTRAP_PERSONAL_API_KEY,
  });
  await services.eventStore.appendToStream(
    BOOTSTRAP_STREAM,
    [{ type: 'InstallationBootstrapped', data: { userId: user.id, organizationId: organization.id, projectId: organization.project.id, at: metadata.now } }],
    { expectedRevision: 'no_stream' },
  );
  return {
    email: config.BOOTSTRAP_EMAIL,
    password: config.BOOTSTRAP_PASSWORD ? undefined : password,
    personalApiKey: config.BOOTSTRAP_PERSONAL_API_KEY ? undefined : key.value,
    projectApiKey: config.BOOTSTRAP_PROJECT_API_KEY ? undefined : organization.project.apiToken,
    organizationId: organization.id,
    projectId: organization.project.id,
  };
}
