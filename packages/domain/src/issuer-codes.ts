import type { AccountStatus } from './organisations.ts';

/**
 * An issuer's code lists (issue 15 items 1 and 6; seed 001 §3 "Issuer account status code and reason
 * code", "Dispute reason", §5, §9): dispute reasons, account status codes and maintenance reason codes.
 * Each list holds at most 99 codes of at most 2 characters without spaces (stored upper case, unique in
 * the list) with a description of at most 75; an account status code also names the system status it
 * sets (1 character: A Active, S Suspended, C Closed). A cardholder carries at most 10 maintenance
 * reason codes. Every problem is a message key (`validation.{key}`).
 */

export const ISSUER_CODE_LISTS = {
  'dispute-reasons': { kind: 'dispute' },
  'account-status-codes': { kind: 'accountStatus' },
  'maintenance-reasons': { kind: 'maintenance' },
} as const;
export type IssuerCodeListName = keyof typeof ISSUER_CODE_LISTS;
export type IssuerCodeKind = (typeof ISSUER_CODE_LISTS)[IssuerCodeListName]['kind'];
export const ISSUER_CODE_LIST_NAMES = Object.keys(ISSUER_CODE_LISTS) as IssuerCodeListName[];

export const ISSUER_CODE_LIMITS = {
  /** Seed 001 §9: "dispute reasons 99; reason fields 99". */
  perList: 99,
  /** Seed 001 §5: "issuer reason code at most 2 characters, no spaces". */
  codeMaxLength: 2,
  /** Seed 001 §5: "reason code description at most 75". */
  descriptionMaxLength: 75,
  /** Seed 001 §9: "maintenance reason codes per cardholder 10". */
  perCardholder: 10,
} as const;

/** Seed 001 §5 "set system account status 1 character": the system status an account status code sets. */
export const SYSTEM_STATUSES = { A: 'Active', S: 'Suspended', C: 'Closed' } as const satisfies Record<
  string,
  AccountStatus
>;
export type SystemStatus = keyof typeof SYSTEM_STATUSES;
export const isSystemStatus = (value: unknown): value is SystemStatus =>
  typeof value === 'string' && Object.hasOwn(SYSTEM_STATUSES, value);

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A code as stored: trimmed, upper case (codes compare without case). */
export const normaliseIssuerCode = (code: string): string => code.trim().toUpperCase();

export interface IssuerCodeProblems {
  code?: string;
  description?: string;
  systemStatus?: string;
}

/** Checks one code of a list: field → message key, empty when right. */
export function checkIssuerCode(
  fields: { code: string; description: string; systemStatus?: string | null | undefined },
  list: IssuerCodeListName,
): IssuerCodeProblems {
  const problems: IssuerCodeProblems = {};
  const code = normaliseIssuerCode(fields.code);
  if (code === '') problems.code = 'issuerCode.code.required';
  else if (code.length > ISSUER_CODE_LIMITS.codeMaxLength || /\s/.test(code) || CONTROL.test(code))
    problems.code = 'issuerCode.code.format';
  const description = fields.description.trim();
  if (description === '') problems.description = 'issuerCode.description.required';
  else if ([...description].length > ISSUER_CODE_LIMITS.descriptionMaxLength)
    problems.description = 'issuerCode.description.tooLong';
  else if (CONTROL.test(description)) problems.description = 'issuerCode.description.format';
  if (ISSUER_CODE_LISTS[list].kind === 'accountStatus' && !isSystemStatus(fields.systemStatus))
    problems.systemStatus = 'issuerCode.systemStatus.required';
  return problems;
}

/** A cardholder's maintenance reason codes: at most 10, none twice. Undefined: fine. */
export function checkCardholderReasons(codes: readonly string[]): string | undefined {
  const normal = codes.map(normaliseIssuerCode);
  if (normal.length > ISSUER_CODE_LIMITS.perCardholder) return 'cardholder.reasons.tooMany';
  if (new Set(normal).size !== normal.length) return 'cardholder.reasons.duplicate';
  return undefined;
}
