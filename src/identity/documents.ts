/** The identity read models as the HTTP layer reads them (written by projections/users.ts and friends). */
export type UserDoc = {
  _id: number;
  id: number;
  uuid: string;
  email: string;
  first_name: string;
  last_name: string;
  distinct_id: string;
  is_email_verified: boolean;
  password_hash: string | null;
  current_organization_id: string | null;
  current_team_id: number | null;
  date_joined: string;
  is_active: boolean;
};

export type OrganizationDoc = {
  _id: string;
  id: string;
  name: string;
  slug: string;
  logo_media_id: string | null;
  created_at: string;
  updated_at: string;
  plugins_access_level: number;
  is_member_join_email_enabled: boolean;
  enforce_2fa: boolean | null;
  metadata: string;
  customer_id: string;
  member_count: number;
  teams: { id: number; uuid: string; name: string; api_token: string; organization: string }[];
};

export type MemberDoc = {
  _id: string;
  id: string;
  organization_id: string;
  user_id: number;
  user_uuid: string;
  level: number;
  joined_at: string;
  updated_at: string;
};

export type ProjectDoc = {
  _id: number;
  id: number;
  uuid: string;
  organization_id: string;
  name: string;
  api_token: string;
  created_at: string;
  updated_at: string;
};

export type ApiKeyDoc = {
  _id: string;
  id: string;
  user_id: number;
  label: string;
  secure_value: string;
  mask_value: string;
  scopes: string[];
  scoped_organizations: string[];
  scoped_teams: number[];
  created_at: string;
  last_used_at: string | null;
};

/** The user summary the interface embeds wherever a user is named (created_by, member.user, …). */
export function userSummary(user: UserDoc | null | undefined) {
  if (!user) return null;
  return {
    id: user.id,
    uuid: user.uuid,
    distinct_id: user.distinct_id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    is_email_verified: user.is_email_verified,
    hedgehog_config: null,
  };
}

export type InviteDoc = {
  _id: string;
  id: string;
  organization_id: string;
  target_email: string;
  first_name: string;
  level: number;
  message: string | null;
  private_project_access: { id: number; level: 'member' | 'admin' }[];
  send_email: boolean;
  emailing_attempt_made: boolean;
  created_by: number;
  created_at: string;
  updated_at: string;
};

export type LoginSessionDoc = { _id: string; id: string; user_id: number; token_hash: string; expires_at: string; created_at: string };
