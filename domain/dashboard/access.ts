/**
 * Who may edit a dashboard and change its restriction (posthog-behaviours §4). Every feature is available, so
 * the effective restriction level is the stored one. Pure: the decider and the serializer share it.
 */
import { MembershipLevel } from '../organization/levels';

export const RestrictionLevel = { everyoneInProjectCanEdit: 21, onlyCollaboratorsCanEdit: 37 } as const;
export const PrivilegeLevel = { canView: 21, canEdit: 37 } as const;
export const RESTRICTION_LEVELS: readonly number[] = [RestrictionLevel.everyoneInProjectCanEdit, RestrictionLevel.onlyCollaboratorsCanEdit];

/** The caller as the rules see them: the router looks up the organization level. */
export type Actor = { userId: number; organizationLevel: number };

export type AccessView = {
  restrictionLevel: number;
  createdBy: number | null;
  /** The actor's explicit collaborator level on this dashboard, if any. */
  collaboratorLevel?: number;
};

/** The creator and organization admins (the reference's project admins) may restrict. */
export const canRestrict = (view: AccessView, actor: Actor) =>
  actor.userId === view.createdBy || actor.organizationLevel >= MembershipLevel.admin;

export function effectivePrivilegeLevel(view: AccessView, actor: Actor): number {
  if (view.restrictionLevel <= RestrictionLevel.everyoneInProjectCanEdit || canRestrict(view, actor)) return PrivilegeLevel.canEdit;
  return view.collaboratorLevel ?? PrivilegeLevel.canView;
}

export const canEdit = (view: AccessView, actor: Actor) =>
  view.restrictionLevel < RestrictionLevel.onlyCollaboratorsCanEdit || effectivePrivilegeLevel(view, actor) >= PrivilegeLevel.canEdit;

export const NO_EDIT_RIGHTS = "You don't have edit permissions for this dashboard.";
export const NO_EDIT_RIGHTS_ON_DESTINATION = "You don't have edit permissions for the destination dashboard.";
export const NO_RESTRICT_RIGHTS =
  "Only the dashboard owner and project admins have the restriction rights required to change the dashboard's restriction level.";
