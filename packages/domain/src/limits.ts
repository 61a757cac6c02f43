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
  /** Longest user ID a new user may be given (seed 001 gives none; docs/authorization.md). */
  newUserIdMaxLength: 20,
  /** Digits a user ID may hold in all (seed 001 §5: "at most 10 digits"). */
  userIdMaxDigits: 10,
  /** A run of this many digits (separators ignored) looks like a card number (seed 001 §9: 12-19). */
  cardNumberMinDigits: 12,
  cardNumberMaxDigits: 19,
  /**
   * The shortest password (seed 001 §5: 12–20 characters; "minimum length is configurable"): the
   * default, and the lowest an issuer may set (issuers.password_min_length, 12 to passwordMaxLength).
   */
  passwordMinLength: 12,
  passwordMaxLength: 20,
  /** Days a password set by its user stays valid (seed 001 §5: 30 to 90): the default and an issuer's bounds. */
  passwordDurationDays: 90,
  passwordDurationMinDays: 30,
  passwordDurationMaxDays: 90,
  /** Longest credential accepted on input; anything longer is a failed attempt, never hashed. */
  credentialMaxLength: 128,
  passwordHistory: 4,
  /**
   * A security answer: at least 6 characters — seed 001 §5 has "security answer at least 4 characters,
   * no spaces" and "password reset answer at least 6 characters" for the same answer (the one forgot
   * password asks); 6 meets both (issue 13 item 6).
   */
  securityAnswerMinLength: 6,
  /** "E-mail address under 60 characters" (seed 001 §5). */
  emailMaxLength: 59,
  /** Search criteria: at least 2 characters (seed 001 §5, §9); the upper bound is ours. */
  searchMinLength: 2,
  searchMaxLength: 100,
  /** Rows per page of a search result, and the most rows a search may match before "Result set is too large". */
  searchPageSize: 25,
  searchMaxResults: 1000,
  /**
   * Transactions a Transaction Summary counts and lets one jump into (400 pages of 25); past it the
   * list still pages by key, with "Result set is too large" to refine it (docs/transactions.md).
   */
  transactionResultMax: 10_000,
  /** Organisation records (docs/organisations.md: the seed gives no lengths for these). */
  orgNameMaxLength: 40,
  issuerNumberMaxDigits: 10,
  icaMaxDigits: 11,
  bankNumberMaxDigits: 10,
  companyNumberMaxDigits: 10,
  orgPointNumberMaxLength: 20,
  /** Reporting levels are numbered 1 (top) to this. */
  reportingLevelMax: 20,
  groupNameMaxLength: 40,
  /** Uploads (reporting structure .xlsx): 4 MB (seed 001 §5, §9; MB = 1024 × 1024 bytes). */
  uploadMaxBytes: 4 * 1024 * 1024,
  /** Rows of one reporting-structure upload. */
  reportingUploadMaxRows: 5000,
  cardholderNameMaxLength: 40,
  /** A real card's alias (seed 001 §9 gives no length: decision, docs/card-data.md). */
  cardAliasMaxLength: 40,
  /** Masked account numbers show at most the BIN (first 6) and the last 4 digits. */
  accountBinDigits: 6,
  accountLastDigits: 4,
  /** Multi-user: combined roles over all linked IDs (seed 001 §6, §9). */
  multiUserMaxRoles: 75,
  /** Largest client error report accepted by log/logErrorStatement.json, bytes. */
  clientLogMaxBytes: 4096,
} as const;
