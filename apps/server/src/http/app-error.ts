/**
 * The one application error (issue 21): what went wrong as a kind — which the error handlers map to
 * the HTTP status, and the CLI to its exit code — a message key as its code, and field errors as
 * message keys. The answer's message is the code's text in the caller's language (`validation.{code}`
 * of the Messages bundle); `message` is only the fallback for a code the bundles lack (and the CLI's
 * line); `rows` a per-row report (an upload); `extra` more fields of the answer (the portal's
 * password.policy: its problems and the minimum length).
 */
export const ERROR_KINDS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  gone: 410,
  tooLarge: 413,
  unsupported: 415,
  unprocessable: 422,
  locked: 423,
  tooMany: 429,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

export interface AppErrorOptions {
  fieldErrors?: Record<string, string>;
  /** The English fallback of the code's text. */
  message?: string;
  /** A per-row report (an upload's rows and their problems). */
  rows?: unknown[];
  /** Facts the catalogue text lacks (e.g. the missing column names), added after it. */
  detail?: string;
  /** More fields of the answer. */
  extra?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string> | undefined;
  readonly rows: unknown[] | undefined;
  readonly detail: string | undefined;
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    options: AppErrorOptions = {},
  ) {
    super(options.message ?? code);
    this.status = ERROR_KINDS[kind];
    this.fieldErrors = options.fieldErrors;
    this.rows = options.rows;
    this.detail = options.detail;
    this.extra = options.extra;
  }
}

/** Throws the application error (typed `never`, so a refusal ends the code path). */
export function refuse(kind: ErrorKind, code: string, fieldErrors?: Record<string, string>): never {
  throw new AppError(kind, code, fieldErrors ? { fieldErrors } : {});
}
