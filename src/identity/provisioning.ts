import { randomBytes, randomUUID } from 'node:crypto';
import type { CommandMetadata } from '../../domain/decider';
import { organizationDecider, organizationStream } from '../../domain/organization';
import { personalApiKeyDecider, personalApiKeyStream } from '../../domain/personal-api-key';
import { projectDecider, projectStream } from '../../domain/project';
import { userDecider, userStream } from '../../domain/user';
import { allocateId } from '../commands/ids';
import { claimUniqueValue, releaseUniqueValue, type UniqueKind } from '../commands/unique-values';
import type { Services } from '../container';
import type { OrganizationSettings } from '../../domain/organization/commands';
import type { MemberDoc, OrganizationDoc, UserDoc } from './documents';
import { normalizeEmail } from './email';
import { generateToken, hashToken, maskToken } from './secrets';

/**
 * The multi-aggregate flows of identity: each step is one command on one stream, in an order where a crash
 * between steps leaves nothing a user could trip over (an organization appears in a user's list only once its
 * membership exists).
 */
export async function createUser(
  services: Services,
  metadata: CommandMetadata,
  input: { email: string; firstName: string; lastName?: string; passwordHash: string | null },
) {
  const id = await allocateId(services.eventStore, 'user');
  const uuid = randomUUID();
  const email = normalizeEmail(input.email);
  await claimUniqueValue(services, metadata, USER_EMAIL, email, String(id));
  await services.commands
    .handle(userDecider, userStream(id), {
      type: 'SignUpUser',
      data: { id, uuid, email, firstName: input.firstName, lastName: input.lastName ?? '', distinctId: randomBytes(24).toString('base64url'), passwordHash: input.passwordHash },
      metadata,
    })
    .catch(async (error) => {
      await releaseUniqueValue(services, metadata, USER_EMAIL, email, String(id));
      throw error;
    });
  return { id, uuid, email };
}

/** One account per e-mail address, also when two signups for it arrive at once (through different invites). */
export const USER_EMAIL: UniqueKind = {
  kind: 'email',
  holderStream: (holder) => userStream(Number(holder)),
  deletedEvent: 'UserSignUpCancelled',
  takenDetail: 'There is already an account with this email address.',
  attr: 'email',
};

export function slugify(name: string) {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || 'organization';
}

async function uniqueSlug(services: Services, name: string) {
  const base = slugify(name);
  let candidate = base;
  for (let i = 0; i < 10; i++) {
    if ((await services.readStore.count('organizations', { slug: candidate })) === 0) return candidate;
    candidate = `${base.slice(0, 43)}-${randomBytes(3).toString('hex').slice(0, 4)}`;
  }
  return `${base.slice(0, 36)}-${randomUUID().slice(0, 8)}`;
}

export async function createProject(services: Services, metadata: CommandMetadata, input: { organizationId: string; name: string; apiToken?: string }) {
  const id = await allocateId(services.eventStore, 'project');
  const apiToken = input.apiToken ?? generateToken('phc_');
  await services.commands.handle(projectDecider, projectStream(id), {
    type: 'CreateProject',
    data: { id, uuid: randomUUID(), organizationId: input.organizationId, name: input.name, apiToken },
    metadata,
  });
  return { id, apiToken };
}

/** A new organization with its owner and a first project, made the owner's current organization. */
export async function createOrganization(
  services: Services,
  metadata: CommandMetadata,
  input: { name: string; owner: { id: number; uuid: string }; projectName?: string; projectApiToken?: string; settings?: OrganizationSettings },
) {
  const id = randomUUID();
  await services.commands.handle(organizationDecider, organizationStream(id), {
    type: 'CreateOrganization',
    data: {
      id,
      name: input.name,
      slug: await uniqueSlug(services, input.name),
      owner: { userId: input.owner.id, userUuid: input.owner.uuid, membershipId: randomUUID() },
      settings: input.settings,
    },
    metadata,
  });
  const project = await createProject(services, metadata, { organizationId: id, name: input.projectName ?? 'Default project', apiToken: input.projectApiToken });
  await services.commands.handle(userDecider, userStream(input.owner.id), {
    type: 'SwitchOrganization',
    data: { organizationId: id, teamId: project.id },
    metadata,
  });
  return { id, project };
}

export async function createPersonalApiKey(
  services: Services,
  metadata: CommandMetadata,
  input: { userId: number; label: string; scopes: string[]; scopedOrganizations?: string[]; scopedTeams?: number[]; value?: string },
) {
  const id = randomUUID();
  const value = input.value ?? generateToken('phx_');
  await services.commands.handle(personalApiKeyDecider, personalApiKeyStream(id), {
    type: 'CreatePersonalApiKey',
    data: {
      id,
      userId: input.userId,
      label: input.label,
      secureValue: hashToken(value),
      maskValue: maskToken(value),
      scopes: input.scopes,
      scopedOrganizations: input.scopedOrganizations ?? [],
      scopedTeams: input.scopedTeams ?? [],
    },
    metadata,
  });
  return { id, value };
}

export const organizationById = (services: Services, id: string) => services.readStore.get<OrganizationDoc>('organizations', id);

/**
 * After a user left an organization (or it was deleted): if it was their current one, another of theirs (the
 * oldest membership) becomes current, with its first project; with none left, nothing is current.
 */
export async function moveOffOrganization(services: Services, metadata: CommandMetadata, userIds: number[], organizationId: string) {
  for (const userId of userIds) {
    const user = await services.readStore.get<UserDoc>('users', userId);
    if (!user || user.current_organization_id !== organizationId) continue;
    const memberships = await services.readStore.find<MemberDoc>(
      'organization_members',
      { user_id: userId, organization_id: { $ne: organizationId } },
      { sort: [['joined_at', 1]] },
    );
    const organizations = await services.readStore.getMany<OrganizationDoc>('organizations', memberships.map((m) => m.organization_id));
    const next = memberships.map((m) => organizations.find((o) => o.id === m.organization_id)).find((o) => o !== undefined) ?? null;
    await services.commands.handle(userDecider, userStream(userId), {
      type: 'SwitchOrganization',
      data: { organizationId: next?.id ?? null, teamId: next?.teams[0]?.id ?? null },
      metadata,
    });
  }
}
