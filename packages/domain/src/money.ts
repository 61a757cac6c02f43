import currencyCodes from 'currency-codes';
import { decimalOfMinor, minorOfDecimal } from './decimal.ts';

/**
 * Money (DESIGN §7 "Money", docs/money.md): an amount is a whole number of the currency's minor units
 * (a `bigint` here, PostgreSQL `bigint` at rest) beside an ISO 4217 code whose exponent — 0 to 4
 * decimals — comes from the maintained table of `currency-codes`, never from us. Text becomes minor units
 * and minor units become text by string arithmetic only: no amount ever passes through a float.
 */

const ISO_CODE = /^[A-Z]{3}$/;
/** Units of account with no minor unit in ISO 4217 ("N.A."), which the table lists with 0 digits. */
const NOT_MONEY = new Set(['XDR', 'XSU', 'XUA']);

/**
 * The currency's decimals (0–4) by its ISO 4217 code, or undefined for a code the table does not know
 * or that has no minor unit (gold, SDR, testing codes: `digits` absent).
 */
export function currencyExponent(code: string): number | undefined {
  // Looked up once per code (the table's lookup is a scan; files carry a few currencies, many times).
  if (EXPONENTS.has(code)) return EXPONENTS.get(code);
  const exponent = lookUpExponent(code);
  if (EXPONENTS.size < 1024) EXPONENTS.set(code, exponent);
  return exponent;
}

const EXPONENTS = new Map<string, number | undefined>();

function lookUpExponent(code: string): number | undefined {
  if (!ISO_CODE.test(code) || NOT_MONEY.has(code)) return undefined;
  const record = currencyCodes.code(code);
  // Metals, bond units, testing and "no currency" codes: listed under pseudo-countries `Zz…`.
  if (!record || record.countries.length === 0 || record.countries.some((c) => c.startsWith('Zz')))
    return undefined;
  const digits = record.digits;
  return typeof digits === 'number' && Number.isInteger(digits) && digits >= 0 && digits <= 4
    ? digits
    : undefined;
}

export const isCurrencyCode = (code: string): boolean => currencyExponent(code) !== undefined;

/**
 * Parses an amount written in major units with at most the currency's decimals (`12.5`, `-3.000`,
 * `1200`), as files and forms carry it, into minor units. A decimal point only (no grouping, no
 * exponent); a leading `-` for credits. Answers the minor units, or the message key of the problem:
 * `money.amount.format` (not a number like that), `money.amount.decimals` (more decimals than the
 * currency has), `money.amount.tooLarge`, `money.currency.unknown`.
 */
export function parseMinorUnits(text: string, currency: string): { minor: bigint } | { problem: string } {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) return { problem: 'money.currency.unknown' };
  return minorOfDecimal(text, exponent);
}

/**
 * Minor units as a plain decimal string in major units with exactly the currency's decimals
 * (`-1234.50`): for files, for exports, and as the exact input of Intl.NumberFormat.
 */
export function toMajorUnits(minor: bigint, currency: string): string {
  return decimalOfMinor(minor, currencyExponent(currency) ?? 2);
}

/**
 * An amount as the user's locale writes it, with the currency's decimals (`1.234,50 €`). Intl formats the
 * decimal string exactly (a string argument is an exact decimal, never rounded through a double).
 */
export function formatMoney(minor: bigint, currency: string, locale: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const format = new Intl.NumberFormat(locale.replace('_', '-'), {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  return format.format(toMajorUnits(minor, currency) as `${number}`);
}
