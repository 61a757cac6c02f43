import { LIMITS } from '@cardportal/domain';
import { decodeRedirect } from '../../lib/redirect.ts';

const TOKEN = new RegExp(`^\\d{${LIMITS.nextTokenDigits}}$`);

/** Spec §5: required, exactly eight digits. */
export function isValidNextToken(value: string): boolean {
  return TOKEN.test(value);
}

/** The web-gateway code 14008: the tokencode is wrong (spec §8). */
export const INVALID_TOKEN_EC = '14008';

/**
 * Spec §4: an answered URL that carries `ec=` is a failure — the value of ec, '' when it has none;
 * null when the answer is not a failure.
 */
export function gatewayErrorOf(answer: string): string | null {
  const url = decodeRedirect(answer);
  if (!/[?&]ec=/.test(url)) return null;
  try {
    return new URL(url, 'http://portal.invalid').searchParams.get('ec') ?? '';
  } catch {
    return '';
  }
}

/** The page-query fields the next-token form passes on (spec §7). */
export const FORWARDED_QUERY_FIELDS = ['referral_path', 'authn_attempt_id', 'in_response_to'] as const;
