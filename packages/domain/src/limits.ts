/** Business constants and limits, from the portal spec §9 and seed 001 §9. One home for each number. */
export const LIMITS = {
  /** Consecutive failed sign-ins (passwords, codes, answers, passcodes) before the user is locked. */
  maxFailedAttempts: 6,
  /** A lock caused by failed attempts lifts after this many minutes (DESIGN §5). */
  lockMinutes: 30,
  /** Session-expiry countdown shown in the warning modal, seconds. */
  sessionCountdownSeconds: 80,
  /** Default idle time before the session-expiry warning, milliseconds. */
  sessionWarningMs: 220_000,
  /** Co-brand lookups are cached this long on the client, milliseconds. */
  cobrandCacheMs: 900_000,
  /** Characters in the sec-token CSRF cookie. */
  csrfTokenLength: 20,
  otpDigits: 6,
  otpExpiryMinutes: 15,
  pinDigits: 4,
  nextTokenDigits: 8,
  /** Locale and user ID cookies live 90 days. */
  cookieDays: 90,
  forceRefreshMillis: 1_800_000,
  userIdMinLength: 6,
  /** Longest user ID accepted anywhere; longer input is refused before any lookup. */
  userIdMaxLength: 64,
  passwordMinLength: 12,
  passwordMaxLength: 20,
  /** Longest credential accepted on input; anything longer is a failed attempt, never hashed. */
  credentialMaxLength: 128,
  passwordHistory: 4,
  securityAnswerMinLength: 4,
  emailMaxLength: 59,
  /** Largest client error report accepted by log/logErrorStatement.json, bytes. */
  clientLogMaxBytes: 4096,
} as const;
