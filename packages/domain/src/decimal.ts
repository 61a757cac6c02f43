/**
 * Exact decimals from integer minor units, with no currency table (the screens take the exponent from
 * the answer): a file of its own so that the application's bundle does not carry money.ts's ISO 4217
 * table (`currency-codes`) for it.
 */

/**
 * Minor units (a bigint or a string of digits, as answers carry them) as a decimal string with
 * `exponent` decimals. Needs no currency table: the screens take the exponent from the answer.
 */
export function decimalOfMinor(minorUnits: bigint | string, exponent: number): string {
  const minor = typeof minorUnits === 'bigint' ? minorUnits : BigInt(minorUnits);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** The largest amount accepted, in major units' whole digits (PostgreSQL bigint holds 18 and more). */
export const MONEY_MAX_WHOLE_DIGITS = 13;

/**
 * An amount written in major units with at most `exponent` decimals (`12.5`, `-3.000`, `1200`) as minor
 * units, by string arithmetic (never a float); or the problem's message key: `money.amount.format`,
 * `money.amount.decimals` (more decimals than the currency has), `money.amount.tooLarge`. A decimal
 * point only (no grouping, no exponent); a leading `-` for credits.
 */
export function minorOfDecimal(text: string, exponent: number): { minor: bigint } | { problem: string } {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return { problem: 'money.amount.format' };
  const [, sign, whole = '', fraction = ''] = match;
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  if (wholeDigits.length > MONEY_MAX_WHOLE_DIGITS) return { problem: 'money.amount.tooLarge' };
  // Trailing zeros past the currency's decimals say nothing (`10.50` in JPY is not; `10.500` in EUR is).
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) return { problem: 'money.amount.decimals' };
  const minor = BigInt(`${wholeDigits}${significant.padEnd(exponent, '0')}`);
  return { minor: sign === '-' ? -minor : minor };
}
