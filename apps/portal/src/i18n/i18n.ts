import { DEFAULT_LOCALE } from '@cardportal/domain';
import type Messages from '../../../../packages/i18n/bundles/en_US/Messages.json';
import type Labels from '../../../../packages/i18n/bundles/en_US/PortalLabels.json';
import { type Bundle, getBundle } from '../api/i18n-bundle.ts';

/**
 * Every key the portal may ask for, typed from the en_US bundles: a key missing from en_US is a
 * compile error, so en_US stays complete.
 */
export type LabelKey = keyof typeof Labels;
export type MessageKey = keyof typeof Messages;
export type TKey = LabelKey | MessageKey;

export type Translate = (key: TKey, ...args: ReadonlyArray<string | number>) => string;

/** Replaces `{0}`, `{1}`, ... with the arguments; placeholders without an argument stay as they are. */
export function format(template: string, args: ReadonlyArray<string | number>): string {
  if (args.length === 0) return template;
  return template.replace(/\{(\d+)\}/g, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}

/**
 * Builds `t(key, ...args)` over the fetched bundles (labels first, then messages). A key missing from
 * both yields '' — screens then name their controls from the key (see `nameOr`) so they stay usable.
 */
export function createTranslate(labels: Bundle, messages: Bundle): Translate {
  return (key, ...args) => {
    const template = labels[key] ?? messages[key];
    return template === undefined ? '' : format(template, args);
  };
}

/** The accessible-name fallback for a control whose text is missing: the key itself. */
export function nameOr(text: string, key: TKey): string | undefined {
  return text ? undefined : key;
}

async function bundleOrEmpty(
  locale: string,
  name: 'PortalLabels' | 'Messages',
  signal?: AbortSignal,
): Promise<Bundle> {
  try {
    return await getBundle(locale, name, signal);
  } catch {
    if (locale === DEFAULT_LOCALE) return {};
    // A locale the server has no bundle for: en_US text is better than none; failing that, empty.
    try {
      return await getBundle(DEFAULT_LOCALE, name, signal);
    } catch {
      return {};
    }
  }
}

/** Loads both bundles of a locale in parallel; a failed fetch yields an empty bundle (spec §1). */
export async function loadTranslate(locale: string, signal?: AbortSignal): Promise<Translate> {
  const [labels, messages] = await Promise.all([
    bundleOrEmpty(locale, 'PortalLabels', signal),
    bundleOrEmpty(locale, 'Messages', signal),
  ]);
  return createTranslate(labels, messages);
}
