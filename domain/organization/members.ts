import { denied, invalid } from '../errors';
import { MembershipLevel } from './levels';
import type { Member } from './state';

export const INSUFFICIENT_LEVEL = 'Your organization access level is insufficient.';

/** The reference's validate_update: what `actor` may do to `target`'s membership (newLevel undefined: remove it). */
export function checkMemberChange(actor: Member, target: Member, newLevel?: number) {
  if (actor.userId === target.userId) {
    if (newLevel !== undefined) throw denied("You can't change your own access level.");
    return;
  }
  if (newLevel !== undefined) {
    if (newLevel === MembershipLevel.owner && actor.level !== MembershipLevel.owner) {
      throw denied("You can only make another member owner if you're this organization's owner.");
    }
    if (newLevel > actor.level) throw denied('You can only change access level of others to lower or equal to your current one.');
  }
  if (actor.level < MembershipLevel.admin) throw denied('You can only edit others if you are an admin.');
  if (target.level > actor.level) throw denied('You can only edit others with level lower or equal to you.');
}

/** An owner membership is never removed, whoever asks (there is no "last owner" count to consult). */
export function checkRemovable(target: Member) {
  if (target.level === MembershipLevel.owner) throw invalid('Cannot leave the organization as its owner!');
}
