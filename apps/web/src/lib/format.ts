import { decimalOfMinor } from '@cardportal/domain';

/**
 * Numbers, dates and money in the user's language, with Intl (docs/text.md): the application formats
 * nothing by hand. Formatters are built once per language.
 */
export interface Formats {
  /** A count or other whole number: `1,234` / `1 234` / `1.234`. */
  number: (value: number) => string;
  /** A calendar date (`YYYY-MM-DD`, as the API sends it), without a time zone shift. */
  date: (isoDate: string) => string;
  /** A moment (an ISO timestamp) as date and time. */
  dateTime: (iso: string, style?: 'short' | 'medium') => string;
  /** A moment as a long date with a short time (the home page's last sign-in). */
  longDateTime: (iso: string) => string;
  /**
   * Money from integer minor units (cents, öre, yen ...; a bigint, or a string of digits as the API
   * sends it), in the currency's own number of decimals (`exponent`, else as Intl knows the currency).
   * Exact: the digits are placed by string arithmetic, never divided as a float.
   */
  money: (minorUnits: number | bigint | string, currency: string, exponent?: number) => string;
  /** A month (`YYYY-MM`) as its short name and year: `Nov 2026`. */
  month: (isoMonth: string) => string;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The number of decimals of a currency's minor unit (ISO 4217: USD 2, JPY 0, KWD 3), as Intl knows it. */
export function minorUnitDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

export function makeFormats(languageTag: string): Formats {
  const number = new Intl.NumberFormat(languageTag);
  const date = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeZone: 'UTC' });
  const dateTime = {
    short: new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'short' }),
    medium: new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'medium' }),
  };
  const longDateTime = new Intl.DateTimeFormat(languageTag, { dateStyle: 'long', timeStyle: 'short' });
  const money = new Map<string, Intl.NumberFormat>();
  const monthFormat = new Intl.DateTimeFormat(languageTag, {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return {
    number: (value) => number.format(value),
    date: (isoDate) => {
      const parts = DATE_ONLY.exec(isoDate);
      if (!parts) return isoDate;
      return date.format(new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))));
    },
    dateTime: (iso, style = 'medium') => dateTime[style].format(new Date(iso)),
    longDateTime: (iso) => longDateTime.format(new Date(iso)),
    money: (minorUnits, currency, exponent) => {
      if (typeof minorUnits === 'number' && !Number.isSafeInteger(minorUnits))
        throw new RangeError('money is integer minor units');
      const digits = exponent ?? minorUnitDigits(currency);
      const key = `${currency}/${digits}`;
      let format = money.get(key);
      if (!format) {
        format = new Intl.NumberFormat(languageTag, {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        });
        money.set(key, format);
      }
      // A decimal string is formatted exactly (Intl.NumberFormat v3), whatever its size.
      return format.format(decimalOfMinor(BigInt(minorUnits), digits) as `${number}`);
    },
    month: (isoMonth) => {
      const parts = /^(\d{4})-(\d{2})$/.exec(isoMonth);
      if (!parts) return isoMonth;
      return monthFormat.format(new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, 1)));
    },
  };
}
