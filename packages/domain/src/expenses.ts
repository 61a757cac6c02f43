import { valueKeyOf } from './accounting.ts';
import { minorOfDecimal } from './decimal.ts';

/**
 * A company's expense configuration (issue 17 item 1, docs/expenses.md; seed 001 §3 "Expense Report,
 * Expense Policy, Mileage Configuration, approval profiles and thresholds", §5 and §9): expense types with
 * their properties, the expense policy, mileage rates, tax rates, approval profiles and thresholds. Pure
 * rules, shared by the server (which decides) and the screens (which say it first). Every problem is a
 * message key (`validation.{key}`).
 */

export const EXPENSE_LIMITS = {
  /** Seed 001 §9: "Mileage rates 50; expense types 50; expense type properties 10". */
  typesPerCompany: 50,
  propertiesPerType: 10,
  mileageRatesPerCompany: 50,
  /** Seed 001 §9: "Tax rates per company 10". */
  taxRatesPerCompany: 10,
  /** Ours (seed 001 names no number): a company's approval profiles and thresholds. */
  approvalProfilesPerCompany: 50,
  approvalThresholdsPerCompany: 20,
  /** Approvers in one profile (ours). */
  profileMembersMax: 100,
  /** A type's, rate's or profile's name (ours; the screens and exports show 50). */
  nameMaxLength: 50,
  /** A property's label, as a custom data field's (seed 001 §5: "label at most 25 characters"). */
  propertyLabelMaxLength: 25,
  /** Seed 001 §5: "workflow instructions 900". */
  workflowInstructionsMax: 900,
  /** Seed 001 §5: "expense description max length 10-255": the policy sets it within this range. */
  descriptionMaxLength: { min: 10, max: 255 },
  /** Seed 001 §5 and §9: "approval percentage 1-100". */
  approvalPercentage: { min: 1, max: 100 },
  /** Decimals of a mileage rate in major units (0.655 USD a mile). */
  mileageRateDecimals: 4,
  /** Decimals of a tax rate in percent (8.875 %). */
  taxRateDecimals: 3,
} as const;

/** What an expense type is for: an ordinary cost, or a journey priced by a mileage rate. */
export const EXPENSE_CATEGORIES = ['general', 'mileage'] as const;
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];

/** The kinds of value an expense type's property holds on a line. */
export const EXPENSE_PROPERTY_KINDS = ['text', 'number', 'date'] as const;
export type ExpensePropertyKind = (typeof EXPENSE_PROPERTY_KINDS)[number];

export const MILEAGE_UNITS = ['km', 'mi'] as const;
export type MileageUnit = (typeof MILEAGE_UNITS)[number];

export interface ExpenseProperty {
  label: string;
  kind: ExpensePropertyKind;
  required: boolean;
}

const FORBIDDEN = /[<>\p{Cc}]/u;

/** A name's problem (`{entity}.name.required|tooLong|invalidCharacters`), or undefined. */
export function expenseNameProblem(entity: string, name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return `${entity}.name.required`;
  if ([...trimmed].length > EXPENSE_LIMITS.nameMaxLength) return `${entity}.name.tooLong`;
  if (FORBIDDEN.test(trimmed)) return `${entity}.name.invalidCharacters`;
  return undefined;
}

/** The key names compare by: case and surrounding spaces do not make a second "Hotel". */
export const expenseNameKey = (name: string): string => valueKeyOf(name.trim());

/** The problems of an expense type: its name and its properties (`properties`, one key for the list). */
export function expenseTypeProblems(def: {
  name: string;
  category: ExpenseCategory;
  properties: readonly ExpenseProperty[];
}): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = expenseNameProblem('expenseType', def.name);
  if (name) problems.name = name;
  if (!EXPENSE_CATEGORIES.includes(def.category)) problems.category = 'expenseType.category.invalid';
  if (def.properties.length > EXPENSE_LIMITS.propertiesPerType)
    problems.properties = 'expenseType.properties.tooMany';
  else {
    const labels = def.properties.map((p) => p.label.trim());
    if (labels.some((l) => l === '')) problems.properties = 'expenseType.properties.labelRequired';
    else if (labels.some((l) => [...l].length > EXPENSE_LIMITS.propertyLabelMaxLength))
      problems.properties = 'expenseType.properties.labelTooLong';
    else if (labels.some((l) => FORBIDDEN.test(l)))
      problems.properties = 'expenseType.properties.invalidCharacters';
    else if (new Set(labels.map(valueKeyOf)).size !== labels.length)
      problems.properties = 'expenseType.properties.duplicate';
    else if (def.properties.some((p) => !EXPENSE_PROPERTY_KINDS.includes(p.kind)))
      problems.properties = 'expenseType.properties.kind';
  }
  return problems;
}

/**
 * A positive amount in major units (`125.50`) as minor units of a currency with `exponent` decimals, or
 * the problem (`{field}` keys: money.amount.format|decimals|tooLarge, `expense.amount.positive`).
 */
export function positiveMinor(text: string, exponent: number): { minor: bigint } | { problem: string } {
  const parsed = minorOfDecimal(text, exponent);
  if ('problem' in parsed) return parsed;
  if (parsed.minor <= 0n) return { problem: 'expense.amount.positive' };
  return parsed;
}

/**
 * A screen's first check of an amount typed before the currency's decimals are known: empty (undefined,
 * or `required` when one is needed), else `positiveMinor` at the most decimals any currency has (4); the
 * server checks the currency's own.
 */
export function amountTextProblem(text: string, required?: string): string | undefined {
  if (text.trim() === '') return required;
  const parsed = positiveMinor(text, 4);
  return 'problem' in parsed ? parsed.problem : undefined;
}

/**
 * A decimal with at most `decimals` places as an integer scaled by 10^decimals (`0.655` with 4 → 6550n),
 * never through a float; undefined when the text is not such a decimal or has more places.
 */
export function scaledDecimal(text: string, decimals: number): bigint | undefined {
  const match = /^(\d{1,9})(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > decimals) return undefined;
  return BigInt(`${whole}${significant.padEnd(decimals, '0')}`);
}

/** A scaled integer back as its shortest decimal (`6550n`, 4 → `0.655`). */
export function decimalOfScaled(scaled: bigint | number, decimals: number): string {
  const digits = BigInt(scaled)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** A mileage rate per unit, in 1/10,000 of the major unit; `mileageRate.rate.positive` unless > 0. */
export function mileageRateOf(text: string): { scaled: bigint } | { problem: string } {
  const scaled = scaledDecimal(text, EXPENSE_LIMITS.mileageRateDecimals);
  if (scaled === undefined) return { problem: 'mileageRate.rate.format' };
  // Seed 001 §5: "mileage rate greater than zero".
  if (scaled <= 0n) return { problem: 'mileageRate.rate.positive' };
  return { scaled };
}

/** A tax rate in percent, in 1/1,000 of a percent; above 0 and at most 100. */
export function taxRateOf(text: string): { scaled: number } | { problem: string } {
  const scaled = scaledDecimal(text, EXPENSE_LIMITS.taxRateDecimals);
  if (scaled === undefined) return { problem: 'taxRate.rate.format' };
  if (scaled <= 0n || scaled > 100_000n) return { problem: 'taxRate.rate.range' };
  return { scaled: Number(scaled) };
}

/**
 * A journey's amount in minor units: distance × rate, the rate in 1/10,000 of the major unit, rounded
 * half up to the currency's `exponent` (seed 001 §5: "odometer start below end").
 */
export function mileageAmount(distance: bigint, rateScaled: bigint, exponent: number): bigint {
  // ISO 4217 exponents are 0–4, the rate's decimals 4: the scale is a whole power of ten.
  const scale = 10n ** BigInt(Math.max(0, EXPENSE_LIMITS.mileageRateDecimals - exponent));
  return (distance * rateScaled * 2n + scale) / (2n * scale);
}

/** The tax inside a gross amount at a rate (1/1,000 %), rounded half up: gross × r / (100 + r). */
export function includedTax(grossMinor: bigint, rateScaled: number): bigint {
  const rate = BigInt(rateScaled);
  const divisor = 100_000n + rate;
  const negative = grossMinor < 0n;
  const gross = negative ? -grossMinor : grossMinor;
  const tax = (gross * rate * 2n + divisor) / (2n * divisor);
  return negative ? -tax : tax;
}

/** Seed 001 §5 "approval percentage 1-100": a whole percent, or the problem. */
export function approvalPercentageProblem(value: number): string | undefined {
  const { min, max } = EXPENSE_LIMITS.approvalPercentage;
  return Number.isInteger(value) && value >= min && value <= max
    ? undefined
    : 'approvalProfile.percentage.range';
}

/** Markup (`<`, `>`) or a control character other than a line break or tab. */
export function hasMarkupOrControls(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '<' || ch === '>') return true;
    if ((code < 32 && ch !== '\n' && ch !== '\r' && ch !== '\t') || code === 127) return true;
  }
  return false;
}

/** The policy's own problems (its per-type limits are checked against the company's types). */
export function expensePolicyProblems(def: {
  descriptionMaxLength: number;
  workflowInstructions: string;
}): Record<string, string> {
  const problems: Record<string, string> = {};
  const { min, max } = EXPENSE_LIMITS.descriptionMaxLength;
  if (
    !Number.isInteger(def.descriptionMaxLength) ||
    def.descriptionMaxLength < min ||
    def.descriptionMaxLength > max
  )
    problems.descriptionMaxLength = 'expensePolicy.descriptionMaxLength.range';
  if ([...def.workflowInstructions].length > EXPENSE_LIMITS.workflowInstructionsMax)
    problems.workflowInstructions = 'expensePolicy.workflowInstructions.tooLong';
  else if (hasMarkupOrControls(def.workflowInstructions))
    problems.workflowInstructions = 'expensePolicy.workflowInstructions.invalidCharacters';
  return problems;
}
