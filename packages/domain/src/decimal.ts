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
