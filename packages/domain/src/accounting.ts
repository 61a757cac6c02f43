import { containsCardNumber } from './card-numbers.ts';

/**
 * Accounting codes (issue 16 item 1; seed 001 §3 "Accounting code and value (dependencies, display as
 * list)", §5, §9; docs/accounting.md): the segments a company books card spend to — cost centre,
 * general-ledger account, project — each a list of values (customer codes) or free text. Every problem
 * is a message key (`validation.{key}`); the server and the screens check with these same functions.
 */

export const ACCOUNTING_LIMITS = {
  /** Codes (segments) per company: a ledger string has a handful; 20 leaves room, stays one screen. */
  codesPerCompany: 20,
  /** A code's name is a label: seed 001 §5 "label at most 25 characters". */
  nameMaxLength: 25,
  /** Seed 001 §5: "customer code 1-25 and not all zeros". */
  valueMaxLength: 25,
  /** A value's description: a ledger name ("Travel – domestic"); the GL exports carry 80. */
  descriptionMaxLength: 80,
  /** Seed 001 §9 "Accounting code values before not viewable: 10,000": more are searched, not listed. */
  listedValuesMax: 10_000,
  /** Seed 001 §9 "Dependent fields: 6": a chain of dependent codes under one code holds at most 6. */
  dependentFieldsMax: 6,
  /** Values one code may hold (a chart of accounts or a project list, with room; the search bench runs 100,000). */
  valuesPerCode: 500_000,
} as const;

/**
 * A list code's values are kept here and chosen from them; a text code is typed freely (up to its
 * length) and has no values — so nothing can depend on it (seed 001 §5).
 */
export const ACCOUNTING_CODE_KINDS = ['list', 'text'] as const;
export type AccountingCodeKind = (typeof ACCOUNTING_CODE_KINDS)[number];

/**
 * How a list code is entered on a transaction (seed 001 "display as list"): `list`, chosen from a
 * drop-down of its values; `entry`, typed (with suggestions) and checked against them. Past
 * `listedValuesMax` values a list code is entered, whatever it says (`effectiveEntry`).
 */
export const ACCOUNTING_ENTRY_MODES = ['list', 'entry'] as const;
export type AccountingEntryMode = (typeof ACCOUNTING_ENTRY_MODES)[number];

export function effectiveEntry(
  code: { kind: AccountingCodeKind; entry: AccountingEntryMode },
  valueCount: number,
): AccountingEntryMode {
  if (code.kind === 'text') return 'entry';
  return valueCount > ACCOUNTING_LIMITS.listedValuesMax ? 'entry' : code.entry;
}

/** A code as the dependency rules see it. */
export interface CodeNode {
  id: number;
  kind: AccountingCodeKind;
  /** The code whose value decides which of this code's values apply; null when none. */
  dependsOn: number | null;
}

export type DependencyProblem =
  | 'accountingCode.dependsOn.self'
  | 'accountingCode.dependsOn.unknown'
  | 'accountingCode.dependsOn.circular'
  | 'accountingCode.dependsOn.text'
  | 'accountingCode.dependsOn.tooDeep';

/**
 * Whether code `id` (of `kind`) may depend on `parent` among a company's `codes` (the code itself may
 * be new, absent from them): not on itself, not on an unknown code, not on a text code and not as a text
 * code (seed 001 §5 "Dependencies cannot be circular or on text codes"), not on a code that (through any
 * chain) depends on it, and no chain longer than `dependentFieldsMax` dependent codes.
 */
export function dependencyProblem(
  codes: readonly CodeNode[],
  change: { id: number; kind: AccountingCodeKind; dependsOn: number | null },
): DependencyProblem | undefined {
  if (change.dependsOn === null) {
    return chainsTooDeep(codes, change) ? 'accountingCode.dependsOn.tooDeep' : undefined;
  }
  if (change.dependsOn === change.id) return 'accountingCode.dependsOn.self';
  const byId = new Map(codes.map((code) => [code.id, code]));
  const parent = byId.get(change.dependsOn);
  if (!parent) return 'accountingCode.dependsOn.unknown';
  if (parent.kind === 'text' || change.kind === 'text') return 'accountingCode.dependsOn.text';
  // Walk up from the parent: meeting the code itself closes a circle.
  const seen = new Set<number>();
  for (
    let at: CodeNode | undefined = parent;
    at;
    at = at.dependsOn === null ? undefined : byId.get(at.dependsOn)
  ) {
    if (at.id === change.id) return 'accountingCode.dependsOn.circular';
    if (seen.has(at.id)) return 'accountingCode.dependsOn.circular';
    seen.add(at.id);
  }
  return chainsTooDeep(codes, change) ? 'accountingCode.dependsOn.tooDeep' : undefined;
}

/** The codes with `change` applied (a new code added). */
function withChange(codes: readonly CodeNode[], change: CodeNode): CodeNode[] {
  const others = codes.filter((code) => code.id !== change.id);
  return [...others, change];
}

/** Whether any chain of dependent codes would hold more than `dependentFieldsMax` codes. */
function chainsTooDeep(codes: readonly CodeNode[], change: CodeNode): boolean {
  const all = withChange(codes, change);
  const byId = new Map(all.map((code) => [code.id, code]));
  for (const code of all) {
    let depth = 0;
    const seen = new Set<number>();
    for (let at = code; at.dependsOn !== null; ) {
      if (seen.has(at.id)) break; // a circle: reported by the walk above
      seen.add(at.id);
      depth += 1;
      if (depth > ACCOUNTING_LIMITS.dependentFieldsMax) return true;
      const up = byId.get(at.dependsOn);
      if (!up) break;
      at = up;
    }
  }
  return false;
}

/**
 * The codes in the order a dependency needs them (a parent before the codes that depend on it), ties by
 * position; a code whose parent is missing comes as a root. Used to lay out a coding form and an upload.
 */
export function dependencyOrder<T extends CodeNode & { position: number }>(codes: readonly T[]): T[] {
  const byPosition = [...codes].sort((a, b) => a.position - b.position || a.id - b.id);
  const ids = new Set(codes.map((code) => code.id));
  const out: T[] = [];
  const placed = new Set<number>();
  const place = (code: T) => {
    if (placed.has(code.id)) return;
    placed.add(code.id);
    out.push(code);
    for (const child of byPosition) if (child.dependsOn === code.id) place(child);
  };
  for (const code of byPosition) if (code.dependsOn === null || !ids.has(code.dependsOn)) place(code);
  // Anything left sits on a circle (never stored; kept so nothing is lost): by position.
  for (const code of byPosition) place(code);
  return out;
}

/** Control characters and markup never belong in a code or its description (seed 001 §5 "HTML not allowed"). */
const FORBIDDEN = /[<>\p{Cc}]/u;

export type CustomerCodeProblem =
  | 'accountingValue.value.required'
  | 'accountingValue.value.tooLong'
  | 'accountingValue.value.allZeros'
  | 'accountingValue.value.format';

/**
 * A customer code (a list code's value, or what is typed into a text code): 1–25 characters (a text
 * code's own length may be shorter), not all zeros (seed 001 §5), letters, digits, spaces and
 * `- _ . / &` only, no leading or trailing space, and never something that looks like a card number.
 */
export function customerCodeProblem(
  value: string,
  maxLength: number = ACCOUNTING_LIMITS.valueMaxLength,
): CustomerCodeProblem | undefined {
  if (value.length === 0) return 'accountingValue.value.required';
  if ([...value].length > maxLength) return 'accountingValue.value.tooLong';
  if (/^0+$/.test(value)) return 'accountingValue.value.allZeros';
  if (value !== value.trim() || !/^[\p{L}\p{N} ._/&-]+$/u.test(value) || containsCardNumber(value))
    return 'accountingValue.value.format';
  return undefined;
}

/** A value's description: optional, at most 80 characters, no markup or control characters, no card number. */
export function valueDescriptionProblem(description: string): string | undefined {
  if ([...description].length > ACCOUNTING_LIMITS.descriptionMaxLength)
    return 'accountingValue.description.tooLong';
  if (FORBIDDEN.test(description) || containsCardNumber(description))
    return 'accountingValue.description.invalidCharacters';
  return undefined;
}

/** A code's name: 1–25 characters, no markup or control characters. */
export function codeNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'accountingCode.name.required';
  if ([...name].length > ACCOUNTING_LIMITS.nameMaxLength) return 'accountingCode.name.tooLong';
  if (FORBIDDEN.test(name)) return 'accountingCode.name.invalidCharacters';
  return undefined;
}

/** A text code's length: a whole number 1–25 (the customer code's limit). */
export function codeLengthProblem(length: number): string | undefined {
  return Number.isInteger(length) && length >= 1 && length <= ACCOUNTING_LIMITS.valueMaxLength
    ? undefined
    : 'accountingCode.maxLength.range';
}

/** The key a value is compared and found by: its customer code in capitals (`ab-1` and `AB-1` are one value). */
export const valueKeyOf = (value: string): string => value.toUpperCase();

// ---- Schemes and subsets (issue 16 item 2) ----

export const SCHEME_LIMITS = {
  /** A scheme's or a subset's name is a label (seed 001 §5: at most 25). */
  nameMaxLength: 25,
  schemesPerCompany: 50,
  subsetsPerCompany: 200,
  /** A subset is a list a person can read (seed 001 §9: past 10,000 values are searched, not listed). */
  valuesPerSubset: 10_000,
} as const;

/**
 * Who may change a code on a transaction (seed 001 §6 "Accounting code edits depend on user override
 * level"): `cardholder` — the cardholder and everyone above; `manager` — approvers and managers (O, S)
 * and the administrators; `administrator` — the company's administrators (G, C) and the issuer's (H, I);
 * `none` — nobody: the account's default stands. The system administrator (Z) reads only.
 */
export const OVERRIDE_LEVELS = ['cardholder', 'manager', 'administrator', 'none'] as const;
export type OverrideLevel = (typeof OVERRIDE_LEVELS)[number];

const OVERRIDE_TYPES: Record<OverrideLevel, readonly string[]> = {
  cardholder: ['A', 'O', 'S', 'G', 'C', 'H', 'I'],
  manager: ['O', 'S', 'G', 'C', 'H', 'I'],
  administrator: ['G', 'C', 'H', 'I'],
  none: [],
};

export function mayOverride(level: OverrideLevel, userType: string): boolean {
  return OVERRIDE_TYPES[level].includes(userType);
}

/** A scheme's line: a code that applies, whether it must be filled, who may change it, an optional subset. */
export interface SchemeLine {
  codeId: number;
  required: boolean;
  override: OverrideLevel;
  subsetId: number | null;
}

export interface SchemeLineProblem {
  index: number;
  field: 'codeId' | 'subsetId';
  problem: string;
}

/**
 * Checks a scheme's lines against the company's codes and subsets: at least one line; each code the
 * company's, active and named once; a subset only on a list code and only one of that code's; a
 * dependent code only with the code it depends on in the scheme too (its values follow that code's).
 */
export function checkSchemeLines(
  lines: readonly SchemeLine[],
  codes: readonly { id: number; kind: AccountingCodeKind; dependsOn: number | null; active: boolean }[],
  subsets: readonly { id: number; codeId: number }[],
): { problem?: string; lines: SchemeLineProblem[] } {
  if (lines.length === 0) return { problem: 'accountingScheme.codes.required', lines: [] };
  const problems: SchemeLineProblem[] = [];
  const chosen = new Set(lines.map((line) => line.codeId));
  const seen = new Set<number>();
  lines.forEach((line, index) => {
    const code = codes.find((c) => c.id === line.codeId);
    if (!code) problems.push({ index, field: 'codeId', problem: 'accountingScheme.code.unknown' });
    else if (seen.has(line.codeId))
      problems.push({ index, field: 'codeId', problem: 'accountingScheme.code.duplicate' });
    else if (!code.active)
      problems.push({ index, field: 'codeId', problem: 'accountingScheme.code.inactive' });
    else if (code.dependsOn !== null && !chosen.has(code.dependsOn))
      problems.push({ index, field: 'codeId', problem: 'accountingScheme.code.parentMissing' });
    else if (line.subsetId !== null) {
      const subset = subsets.find((s) => s.id === line.subsetId);
      if (!subset || subset.codeId !== line.codeId)
        problems.push({ index, field: 'subsetId', problem: 'accountingScheme.subset.otherCode' });
    }
    seen.add(line.codeId);
  });
  return { lines: problems };
}

/** A scheme's or subset's name: 1–25 characters, no markup or control characters. */
export function schemeNameProblem(
  name: string,
  what: 'accountingScheme' | 'accountingSubset',
): string | undefined {
  if (name.length === 0) return `${what}.name.required`;
  if ([...name].length > SCHEME_LIMITS.nameMaxLength) return `${what}.name.tooLong`;
  if (FORBIDDEN.test(name)) return `${what}.name.invalidCharacters`;
  return undefined;
}

/** The customer codes of a list someone typed or pasted: split on commas, semicolons, line breaks; trimmed, empty dropped. */
export function splitCodeList(text: string): string[] {
  return text
    .split(/[,;\r\n]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
