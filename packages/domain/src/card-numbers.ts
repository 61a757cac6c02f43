import { LIMITS } from './limits.ts';
import { normaliseAccountNumber } from './organisations.ts';
import { isLuhnValid } from './user-id.ts';

/**
 * Card numbers (issue 15 item 1, seed 001 §5 and §9, DESIGN §7 "Card data"): what a full number must be
 * before it is issued, the issuer's card BINs, a real card's alias, and the one way a number is shown.
 * Every answer is a message key (`validation.{key}`), never a sentence. The full number itself never
 * leaves the server: it is sealed at rest (apps/server kernel/card-vault.ts) and only its BIN and last
 * four are kept in the clear.
 */

/** Seed 001 §5: "account digits to display 1-8", per issuer (the default shows the last four). */
export const ACCOUNT_DIGITS_MIN = 1;
export const ACCOUNT_DIGITS_MAX = 8;
export const ACCOUNT_DIGITS_DEFAULT = 4;

/** An issuer's "account digits to display": a whole number from 1 to 8, else the problem's key. */
export function checkAccountDigits(value: number): string | undefined {
  return Number.isInteger(value) && value >= ACCOUNT_DIGITS_MIN && value <= ACCOUNT_DIGITS_MAX
    ? undefined
    : 'issuer.accountDigits.range';
}

/** The BIN list of an issuer: at most 255 characters. */
export const CARD_BINS_MAX_LENGTH = 255;
/** One BIN: 6 to 16 digits. */
export const CARD_BIN_MIN_DIGITS = 6;
export const CARD_BIN_MAX_DIGITS = 16;

const CARD_NUMBER = new RegExp(`^\\d{${LIMITS.cardNumberMinDigits},${LIMITS.cardNumberMaxDigits}}$`);

/**
 * The first problem of a card number to issue: required, 12–19 digits (spaces and dashes between
 * groups dropped), the Luhn check digit, within the issuer's BINs when it lists any. Undefined: fine.
 */
export function checkCardNumber(raw: string, bins: readonly string[] = []): string | undefined {
  const number = normaliseAccountNumber(raw);
  if (number.length === 0) return 'account.number.required';
  if (!CARD_NUMBER.test(number)) return 'account.number.format';
  if (!isLuhnValid(number)) return 'account.number.luhn';
  if (bins.length > 0 && !bins.some((bin) => number.startsWith(bin))) return 'account.number.bin';
  return undefined;
}

/**
 * An issuer's card BINs as typed: numbers of 6–16 digits separated by commas, spaces or new lines, at
 * most 255 characters in all, no BIN twice. Answers the list, or the problem's message key.
 */
export function parseCardBins(raw: string): { bins: string[] } | { problem: string } {
  if (raw.length > CARD_BINS_MAX_LENGTH) return { problem: 'issuer.cardBins.tooLong' };
  const bins = raw.split(/[\s,;]+/).filter((bin) => bin.length > 0);
  const pattern = new RegExp(`^\\d{${CARD_BIN_MIN_DIGITS},${CARD_BIN_MAX_DIGITS}}$`);
  if (bins.some((bin) => !pattern.test(bin))) return { problem: 'issuer.cardBins.format' };
  if (new Set(bins).size !== bins.length) return { problem: 'issuer.cardBins.duplicate' };
  return { bins };
}

/**
 * A real card's alias (seed 001 §9): required, at most 40 characters, not the card number itself and
 * not containing its middle digits (positions 7–12), so that the alias never carries the part of the
 * number that is masked everywhere else. Without the number (`''`), only what needs none is checked.
 */
export function checkCardAlias(alias: string, cardNumber: string): string | undefined {
  const value = alias.trim();
  if (value.length === 0) return 'card.alias.required';
  if ([...value].length > LIMITS.cardAliasMaxLength) return 'card.alias.tooLong';
  const number = normaliseAccountNumber(cardNumber);
  const digits = value.replace(/\D/g, '');
  // No number at hand (a screen renaming a card it shows masked): the server checks against it.
  if (number !== '' && (digits === number || value === number)) return 'card.alias.isNumber';
  const middle = number.slice(6, 12);
  if (middle.length === 6 && digits.includes(middle)) return 'card.alias.containsNumber';
  // Nor any other card number (an alias is shown everywhere the masked number is).
  if (containsCardNumber(value)) return 'text.cardNumber';
  return undefined;
}

/** What is kept of a card number in the clear: its BIN (first 6), last 4 and length. */
export interface CardNumberParts {
  bin: string;
  last4: string;
  length: number;
}

export function cardNumberParts(raw: string): CardNumberParts {
  const number = normaliseAccountNumber(raw);
  return {
    bin: number.slice(0, LIMITS.accountBinDigits),
    last4: number.slice(-LIMITS.accountLastDigits),
    length: number.length,
  };
}

/**
 * The card number as every answer, log, export and audit row shows it: the BIN and the last four,
 * the rest masked (`showBin: false` keeps the last four only) — made from the parts kept in the clear,
 * so the full number is not needed to show it.
 */
export function maskCardParts(
  parts: CardNumberParts,
  options: { showBin?: boolean; lastDigits?: number } = {},
): string {
  const head = options.showBin === false ? '' : parts.bin;
  // The issuer's "account digits to display" (1–8), but never more than the four kept in the clear
  // (PCI DSS 3.4.1: BIN and last four at most).
  const shown = Math.max(1, Math.min(options.lastDigits ?? parts.last4.length, parts.last4.length));
  const tail = parts.last4.slice(-shown);
  const hidden = Math.max(0, parts.length - head.length - tail.length);
  return `${head}${'*'.repeat(hidden)}${tail}`;
}

/**
 * Whether free text (an explanation, a description) carries what is very likely a full card number: a run
 * of 12–19 digits, in groups separated by single spaces or dashes at most, with a right Luhn check
 * digit. Such text is refused, so a card number typed into a note is never stored or shown in the clear
 * (DESIGN §7 "Card data"). Longer digit runs (references, account numbers of other kinds) are left alone.
 */
export function containsCardNumber(text: string): boolean {
  for (const match of text.matchAll(/\d(?:[ -]?\d)*/g)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (
      digits.length >= LIMITS.cardNumberMinDigits &&
      digits.length <= LIMITS.cardNumberMaxDigits &&
      isLuhnValid(digits)
    )
      return true;
  }
  return false;
}
