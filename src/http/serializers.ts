import type { OrganizationDoc, ProjectDoc } from '../identity/documents';

/** One shape per resource, used by every endpoint that returns it. */
export function serializeProject(project: ProjectDoc) {
  return {
    id: project.id,
    uuid: project.uuid,
    organization: project.organization_id,
    name: project.name,
    api_token: project.api_token,
    created_at: project.created_at,
    updated_at: project.updated_at,
  };
}

export function serializeOrganization(org: OrganizationDoc, membershipLevel: number | null) {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    logo_media_id: org.logo_media_id,
    created_at: org.created_at,
    updated_at: org.updated_at,
    membership_level: membershipLevel,
    plugins_access_level: org.plugins_access_level,
    teams: org.teams.map((t) => ({ id: t.id, uuid: t.uuid, name: t.name, organization: t.organization, api_token: t.api_token })),
    available_product_features: [],
    is_member_join_email_enabled: org.is_member_join_email_enabled,
    metadata: org.metadata,
    customer_id: org.customer_id,
    enforce_2fa: org.enforce_2fa,
    member_count: String(org.member_count),
  };
}
