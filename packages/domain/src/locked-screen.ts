/**
 * Why the sign-in answered the `locked` screen, as its `reason` query parameter (issue 13 item 6). No
 * reason: the maximum login attempts were reached (spec §2), or a wrong password met a lock of another
 * reason, or that lock's allowance of checked passwords is spent (the password is then not checked). A reason is only ever answered to
 * whoever presented the user's right password, and each maps to its catalogue message (seed 001 §8).
 */
export const LOCKED_REASONS = {
  /** "temporary password expired, contact administrator": the user is now locked until an administrator unlocks. */
  'temporary-expired': 'catalogue.login.temporaryPasswordExpired',
  /** "locked or inactive user or corp": the user's company or issuer is inactive. */
  inactive: 'catalogue.login.lockedOrInactive',
  /** "locked or inactive user or corp": an administrator locked the user (only an unlock lifts it). */
  locked: 'catalogue.login.lockedOrInactive',
  /**
   * Single sign-on did not sign the user in: the provider refused or answered wrongly, the attempt was
   * replayed or too old, or the subject is no active SSO user of the provider (docs/sso.md). Not a lock,
   * and the screen says so; its button leads back to the sign-in.
   */
  sso: 'catalogue.login.ssoFailed',
} as const;
export type LockedReason = keyof typeof LOCKED_REASONS;

export function isLockedReason(value: unknown): value is LockedReason {
  return typeof value === 'string' && Object.hasOwn(LOCKED_REASONS, value);
}
