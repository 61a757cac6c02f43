/**
 * The application's texts in namespaces (docs/text.md): `shell` comes with the application (its frame,
 * the texts more than one screen folder uses, every `validation.*` and `catalogue.*` message), and each
 * screen folder of apps/web/src/screens has one of its own, loaded with its screens. The split is by key:
 * the bundles (PortalLabels, Messages) stay as they are, the server serves each namespace as a file of
 * its own beside them (`app-{namespace}.json`).
 */
export const APP_TEXT_NAMESPACES = [
  'shell',
  'home',
  'multi-user',
  'people',
  'organisation',
  'accounts',
  'audit',
  'issuers',
  'roles',
  'profile',
  'transactions',
  'accounting',
  'expenses',
] as const;

export type AppTextNamespace = (typeof APP_TEXT_NAMESPACES)[number];

/** i18next's plural forms: `key_one`, `key_few`, ... belong where `key` does. */
export const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** A screen folder's own keys, by prefix. */
const FEATURE_PREFIXES: ReadonlyArray<readonly [string, AppTextNamespace]> = [
  ['app.home.', 'home'],
  ['app.multiUser.', 'multi-user'],
  ['app.people.', 'people'],
  ['app.org.', 'organisation'],
  ['app.selfRegistration.', 'organisation'],
  ['app.accounts.', 'accounts'],
  ['app.realCards.', 'accounts'],
  ['app.cardApplications.', 'accounts'],
  ['app.audit.', 'audit'],
  ['app.issuers.', 'issuers'],
  ['app.issuerGroups.', 'issuers'],
  ['app.companyGroups.', 'issuers'],
  ['app.groups.', 'issuers'],
  ['app.options.', 'issuers'],
  ['app.programOption.', 'issuers'],
  ['app.roles.', 'roles'],
  ['app.profile.', 'profile'],
  ['app.transactions.', 'transactions'],
  ['app.issuerCodes.', 'issuers'],
  ['app.companyRegistrations.', 'issuers'],
  ['app.accounting.', 'accounting'],
  ['app.expenses.', 'expenses'],
  ['securityQuestion.', 'profile'],
];

/**
 * Keys under a feature's prefix that the frame or another screen folder uses too: they stay in the shell
 * (a prefix when it ends with a dot, else one key). apps/web/src/lib/text-namespaces.test.ts finds any
 * use of a key outside its namespace.
 */
const SHARED: readonly string[] = [
  // The spend picture shows on the home page (its code loads lazily, its texts come with the shell).
  'app.transactions.spend.',
  'app.transactions.category.',
  'app.transactions.field.category',
  'app.accounts.tabs.',
  // The company's tabs (frame/company-tabs.tsx) name the card applications screen.
  'app.cardApplications.link',
  'app.options.action',
  'app.org.action.',
  'app.org.done.',
  'app.org.field.',
  'app.org.on',
  'app.org.off',
  'app.org.view.',
  'app.people.action.',
  'app.people.create.heading',
  'app.people.field.',
  'app.people.form.',
  'app.people.search.any',
  'app.people.search.jump',
  'app.people.search.jumpSubmit',
  'app.people.search.next',
  'app.people.search.page',
  'app.people.search.paging',
  'app.people.search.previous',
  'app.roles.noPermissions',
];

const SHELL_PREFIXES = ['app.', 'common.', 'validation.', 'catalogue.'];

/** The namespace of a text key; undefined for the portal's own texts, which the application never shows. */
export function textNamespaceOf(key: string): AppTextNamespace | undefined {
  const family = key.replace(PLURAL_SUFFIX, '');
  if (SHARED.some((s) => (s.endsWith('.') ? family.startsWith(s) : family === s))) return 'shell';
  for (const [prefix, namespace] of FEATURE_PREFIXES) if (family.startsWith(prefix)) return namespace;
  return SHELL_PREFIXES.some((p) => family.startsWith(p)) ? 'shell' : undefined;
}

export function isAppTextNamespace(value: string): value is AppTextNamespace {
  return (APP_TEXT_NAMESPACES as readonly string[]).includes(value);
}

/** The file name a namespace is served as, beside PortalLabels.json and Messages.json. */
export const appTextFile = (namespace: AppTextNamespace): string => `app-${namespace}.json`;
