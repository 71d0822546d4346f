/** Organization membership levels, as the reference product numbers them. */
export const MembershipLevel = { member: 1, admin: 8, owner: 15 } as const;
export type MembershipLevel = (typeof MembershipLevel)[keyof typeof MembershipLevel];

/** Self-hosted installations have every plugin capability ("root"). */
export const PLUGINS_ACCESS_ROOT = 9;
