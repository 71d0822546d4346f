import { isExpired } from '../../domain/organization/invites';
import { ApiKeyDoc, InviteDoc, MemberDoc, OrganizationDoc, ProjectDoc, UserDoc, userSummary } from '../identity/documents';

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

export function serializeMember(member: MemberDoc, user: UserDoc | null | undefined) {
  return {
    id: member.id,
    user: userSummary(user),
    level: member.level,
    joined_at: member.joined_at,
    updated_at: member.updated_at,
    is_2fa_enabled: false,
    has_social_auth: false,
  };
}

/** `now` decides is_expired, which is a matter of when one asks. */
export function serializeInvite(invite: InviteDoc, createdBy: UserDoc | null | undefined, now: string) {
  return {
    id: invite.id,
    target_email: invite.target_email,
    first_name: invite.first_name,
    emailing_attempt_made: invite.emailing_attempt_made,
    level: invite.level,
    is_expired: isExpired(invite.created_at, now),
    created_by: userSummary(createdBy),
    created_at: invite.created_at,
    updated_at: invite.updated_at,
    message: invite.message,
    private_project_access: invite.private_project_access,
    send_email: invite.send_email,
  };
}

/** Never the key itself: only its mask. The value appears once, in the creation answer, added by the caller. */
export function serializePersonalApiKey(key: ApiKeyDoc) {
  return {
    id: key.id,
    label: key.label,
    mask_value: key.mask_value,
    scopes: key.scopes,
    scoped_organizations: key.scoped_organizations,
    scoped_teams: key.scoped_teams,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
  };
}
