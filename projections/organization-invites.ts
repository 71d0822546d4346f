import type { Projection } from './projection';

const orgIdOf = (streamId: string) => streamId.slice('organization-'.length);

/**
 * Open invites, one document each. A used, deleted or replaced invite is gone (decisions.md: no longer listed);
 * is_expired is not stored, since it depends on when one asks.
 */
export const organizationInvitesProjection: Projection = {
  name: 'organization_invites',
  version: 1,
  categories: ['organization'],
  collections: { organization_invites: [['organization_id', 'created_at'], ['target_email']] },
  lag: 'awaited',
  keys(event) {
    switch (event.type) {
      case 'OrganizationInviteCreated':
        return [{ collection: 'organization_invites', id: event.data.invite.id }];
      case 'OrganizationInviteDeleted':
      case 'OrganizationInviteAccepted':
        return [{ collection: 'organization_invites', id: event.data.inviteId }];
      case 'OrganizationDeleted':
        return (event.data.inviteIds as string[]).map((id) => ({ collection: 'organization_invites', id }));
      default:
        return [];
    }
  },
  evolve(doc, event) {
    if (event.type !== 'OrganizationInviteCreated') return null;
    const i = event.data.invite;
    return {
      _id: i.id,
      id: i.id,
      organization_id: orgIdOf(event.streamId),
      target_email: i.targetEmail,
      first_name: i.firstName,
      level: i.level,
      message: i.message,
      private_project_access: i.privateProjectAccess,
      send_email: i.sendEmail,
      emailing_attempt_made: false,
      created_by: i.createdBy,
      created_at: i.createdAt,
      updated_at: event.data.at,
    };
  },
};
