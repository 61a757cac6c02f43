import type { CurrentUser } from '@cardportal/domain';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { type Formats, makeFormats } from './format.ts';
import type { AppContext } from './session.ts';
import { makeT, type T, type TCount } from './text.ts';

export type { CountKey, KeySuffix, T, TCount, TextKey } from './text.ts';

export interface App extends AppContext {
  /** A text by its key (typed from the en_US bundles), `{0}` ... replaced. */
  t: T;
  /** A count sentence in the plural form the user's language needs for `count`. */
  tCount: TCount;
  /** Numbers, dates and money with Intl in the user's language. */
  format: Formats;
  /** BCP 47 tag of the user's locale, for Intl. */
  languageTag: string;
  /** The text of a rule's message key (`validation.{key}` in Messages), or the catalogue's generic one. */
  problemText: (key: string) => string;
  /** The same for a field's problem: falls back to the catalogue's "Required field" / "Invalid entry". */
  fieldProblemText: (key: string) => string;
}

/** Server error codes whose text is a catalogue entry of the Messages bundle. */
const CATALOGUE: Record<string, string> = {
  'userId.exists': 'catalogue.user.idExists',
  'search.tooLarge': 'catalogue.data.resultTooLarge',
  'upload.tooLarge': 'catalogue.data.fileTooLarge',
  'upload.unsupportedFormat': 'catalogue.data.invalidFileFormat',
  'upload.virus': 'catalogue.upload.virus',
  'upload.missingHeaders': 'catalogue.upload.missingHeaders',
  'company.inUse': 'catalogue.delete.company',
  'orgPoint.inUse': 'catalogue.delete.orgPoint',
  'currentPassword.wrong': 'catalogue.login.wrongPassword',
};

const Ctx = createContext<App | null>(null);

export function AppProvider({
  context,
  languageTag,
  children,
}: {
  context: AppContext;
  languageTag: string;
  children: ReactNode;
}) {
  const value = useMemo<App>(() => {
    const { t, tCount, raw } = makeT(context.texts, languageTag);
    // Server codes are only known at run time: looked up untyped, each falling through to the next.
    const problemText = (key: string) =>
      (CATALOGUE[key] && raw(CATALOGUE[key])) ||
      raw(`validation.${key}`) ||
      raw(`app.error.${key}`) ||
      t('app.error.generic');
    const fieldProblemText = (key: string) =>
      (CATALOGUE[key] && raw(CATALOGUE[key])) ||
      raw(`validation.${key}`) ||
      raw(`app.error.${key}`) ||
      (/required$/i.test(key) ? t('validation.requiredField') : t('validation.invalidEntry')) ||
      t('app.error.generic');
    return {
      ...context,
      t,
      tCount,
      format: makeFormats(languageTag),
      languageTag,
      problemText,
      fieldProblemText,
    };
  }, [context, languageTag]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useApp(): App {
  const app = useContext(Ctx);
  if (!app) throw new Error('useApp outside AppProvider');
  return app;
}

export function displayName(user: Pick<CurrentUser, 'firstName' | 'lastName' | 'userId'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.userId;
}
