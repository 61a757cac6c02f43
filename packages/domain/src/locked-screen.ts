/**
 * Why the sign-in answered the `locked` screen, as its `reason` query parameter (issue 13 item 6). No
 * reason: the maximum login attempts were reached (spec §2), or a lock of another reason met a further
 * attempt (the password is then not checked, so no reason is told). A reason is only ever answered to
 * whoever presented the user's right password, and each maps to its catalogue message (seed 001 §8).
 */
export const LOCKED_REASONS = {
  /** "temporary password expired, contact administrator": the user is now locked until an administrator unlocks. */
  'temporary-expired': 'catalogue.login.temporaryPasswordExpired',
  /** "locked or inactive user or corp": the user's company or issuer is inactive. */
  inactive: 'catalogue.login.lockedOrInactive',
} as const;
export type LockedReason = keyof typeof LOCKED_REASONS;

export function isLockedReason(value: unknown): value is LockedReason {
  return typeof value === 'string' && Object.hasOwn(LOCKED_REASONS, value);
}
