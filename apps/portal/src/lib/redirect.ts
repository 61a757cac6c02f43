import { isSafeRedirect } from '@cardportal/domain';

/** A login answer is the URL to go to, percent-encoded when it starts with %2F. */
export function decodeRedirect(text: string): string {
  const value = text.trim();
  if (!/^%2F/i.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

/**
 * The URL a server answer names, decoded, when it is a same-origin path of ours (DESIGN §5: a client
 * never navigates to a URL it was handed without checking it); null otherwise.
 */
export function safeRedirect(answer: unknown, origin: string = window.location.origin): string | null {
  if (typeof answer !== 'string') return null;
  const url = decodeRedirect(answer);
  return isSafeRedirect(url, origin) ? url : null;
}
