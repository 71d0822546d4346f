import type { Services } from '../container';
import type { MemberDoc, OrganizationDoc, ProjectDoc } from '../identity/documents';
import { Scope, scopesGrant } from '../identity/scopes';
import { membershipId } from '../../projections/organization-members';
import type { Principal } from './auth';
import { apiErrors } from './errors';
import { INSUFFICIENT_LEVEL } from '../../domain/organization/members';

/** Sessions are not limited by scopes (as in the reference); keys must hold the scope, write implying read. */
export function requireScope(principal: Principal, scope: Scope) {
  if (!principal.key) return;
  if (!scopesGrant(principal.key.scopes, scope)) throw apiErrors.permissionDenied(`API key missing required scope '${scope}'`);
}

export type OrganizationAccess = { organization: OrganizationDoc; membership: MemberDoc };
export type ProjectAccess = OrganizationAccess & { project: ProjectDoc };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function membershipOf(services: Services, principal: Principal, organization: OrganizationDoc) {
  const membership = await services.readStore.get<MemberDoc>('organization_members', membershipId(organization.id, principal.user.id));
  return membership;
}

/**
 * An organization URL: 404 when there is no such organization, 403 when the caller is not a member or the
 * key is limited to other organizations or to projects.
 */
export async function organizationAccess(services: Services, principal: Principal, idParam: string): Promise<OrganizationAccess> {
  const key = principal.key;
  if (key && key.scoped_teams.length > 0) {
    throw apiErrors.permissionDenied('API keys with scoped projects are only supported on project-based endpoints.');
  }
  const id = idParam === '@current' ? principal.user.current_organization_id : idParam;
  if (!id || !UUID.test(id)) throw apiErrors.notFound('Organization not found.');
  const organization = await services.readStore.get<OrganizationDoc>('organizations', id.toLowerCase());
  if (!organization) throw apiErrors.notFound('Organization not found.');
  if (key && key.scoped_organizations.length > 0 && !key.scoped_organizations.includes(organization.id)) {
    throw apiErrors.permissionDenied(`API key does not have access to the requested organization: ID ${organization.id}.`);
  }
  const membership = await membershipOf(services, principal, organization);
  if (!membership) throw apiErrors.permissionDenied();
  return { organization, membership };
}

/** A project URL: the same rules, with the key's project list checked too. */
export async function projectAccess(services: Services, principal: Principal, idParam: string): Promise<ProjectAccess> {
  const id = idParam === '@current' ? principal.user.current_team_id : /^\d+$/.test(idParam) ? Number(idParam) : null;
  if (id === null || !Number.isSafeInteger(id)) throw apiErrors.notFound('Project not found.');
  const project = await services.readStore.get<ProjectDoc>('projects', id);
  if (!project) throw apiErrors.notFound('Project not found.');
  const key = principal.key;
  if (key && key.scoped_teams.length > 0 && !key.scoped_teams.includes(project.id)) {
    throw apiErrors.permissionDenied(`API key does not have access to the requested project: ID ${project.id}.`);
  }
  if (key && key.scoped_organizations.length > 0 && !key.scoped_organizations.includes(project.organization_id)) {
    throw apiErrors.permissionDenied(`API key does not have access to the requested organization: ID ${project.organization_id}.`);
  }
  const organization = await services.readStore.get<OrganizationDoc>('organizations', project.organization_id);
  if (!organization) throw apiErrors.notFound('Project not found.');
  const membership = await membershipOf(services, principal, organization);
  if (!membership) throw apiErrors.permissionDenied("You don't have access to the project.");
  return { project, organization, membership };
}

/** Organization roles (member 1, admin 8, owner 15): checked here before the body is read, so a lesser caller gets 403 not 400. */
export function requireLevel(access: OrganizationAccess, level: number) {
  if (access.membership.level < level) throw apiErrors.permissionDenied(INSUFFICIENT_LEVEL);
}

/** Operations that only a logged-in person may perform (creating and deleting keys), never a key. */
export function requireSession(principal: Principal) {
  if (principal.key) throw apiErrors.permissionDenied('This action does not support personal API key access');
}
