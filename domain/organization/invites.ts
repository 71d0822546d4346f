import { denied, invalid } from '../errors';
import { MembershipLevel } from './levels';

/** How long an invite can be used (the reference's INVITE_DAYS_VALIDITY). */
export const INVITE_DAYS_VALIDITY = 3;
export const MAX_BULK_INVITES = 20;

export type ProjectAccess = { id: number; level: 'member' | 'admin' };

export type InviteInput = {
  id: string;
  /** Already normalized (domain part lower-cased). */
  targetEmail: string;
  firstName: string;
  level: number;
  message: string | null;
  privateProjectAccess: ProjectAccess[];
  sendEmail: boolean;
  /** The user who already has this e-mail address, if any (looked up by the caller). */
  existingUserId: number | null;
  /** The reference's combine_pending_invites: fold the live invites for this address into the new one. */
  combinePendingInvites?: boolean;
};

export type Invite = Omit<InviteInput, 'existingUserId' | 'combinePendingInvites'> & { createdBy: number; createdAt: string };

export const isExpired = (createdAt: string, now: string) =>
  Date.parse(createdAt) < Date.parse(now) - INVITE_DAYS_VALIDITY * 24 * 60 * 60 * 1000;

const ACCESS_RANK = { member: 1, admin: 2 } as const;

/**
 * combine_pending_invites as the reference does it: the highest level among the live (unexpired) invites and
 * the new one, and their project access merged, the higher access winning per project. Expired invites are
 * replaced without adding anything, and the inviter's own level limits only the level they asked for.
 */
export function combineInvites(input: InviteInput, previous: Invite[], now: string): Pick<Invite, 'level' | 'privateProjectAccess'> {
  const live = previous.filter((i) => !isExpired(i.createdAt, now));
  const access = new Map<number, ProjectAccess['level']>();
  for (const { id, level } of [input, ...live].flatMap((i) => i.privateProjectAccess)) {
    const held = access.get(id);
    if (!held || ACCESS_RANK[level] > ACCESS_RANK[held]) access.set(id, level);
  }
  return {
    level: Math.max(input.level, ...live.map((i) => i.level)),
    privateProjectAccess: [...access].map(([id, level]) => ({ id, level })),
  };
}

export function checkInvite(input: InviteInput, inviterLevel: number, memberIds: Set<number>, projectIds: Set<number>) {
  if (![MembershipLevel.member, MembershipLevel.admin, MembershipLevel.owner].includes(input.level as MembershipLevel)) {
    throw invalid(`"${input.level}" is not a valid choice.`, 'level', 'invalid_choice');
  }
  if (input.level > inviterLevel) throw denied('You cannot invite a user with a higher permission level than your own.');
  if (input.existingUserId !== null && memberIds.has(input.existingUserId)) {
    throw invalid('A user with this email address already belongs to the organization.');
  }
  for (const access of input.privateProjectAccess) {
    if (!projectIds.has(access.id)) {
      throw invalid('Project does not exist on this organization, or it is private and you do not have access to it.', 'private_project_access');
    }
  }
}
