import { z } from 'zod';
import { SUPPORTED_LOCALES } from './locales.ts';

/**
 * A URL a co-brand may link to: https, or a path relative to our own origin. No backslash anywhere:
 * browsers read `\` as `/`, so `/\evil.example` is `//evil.example` — another host — and
 * `https://bank.example\@evil.example` goes to evil.example.
 */
const linkUrl = z
  .string()
  .max(2048)
  .refine((v) => /^https:\/\/[^\s<>"'\\]+$/i.test(v) || /^\/(?![/\\])[^\s<>"'\\]*$/.test(v), {
    message: 'must be an https URL or a relative path',
  });

/** A CSS font list: names, quotes, commas, hyphens and spaces — nothing CSS could read as more. */
const fontList = z
  .string()
  .max(200)
  .regex(/^[\w ,'"-]+$/, 'must be a list of font names (letters, digits, spaces, quotes, commas, hyphens)');

/** Plain text: no markup, no control characters. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !/[<>]/.test(v), { message: 'must be plain text, without markup' })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .refine((v) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v), {
      message: 'must not contain control characters',
    });

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour');

export const cobrandThemeSchema = z.object({
  /** Header and primary button background. */
  primary: colour,
  /** Text on the primary colour. */
  onPrimary: colour,
  /** Page background. */
  background: colour,
  /** Body text. */
  text: colour,
  /** Links. */
  link: colour,
  /** Footer background and text. */
  footerBackground: colour,
  footerText: colour,
  fontFamily: fontList,
  /**
   * A plate behind the header logo, for a logo that does not contrast with `primary` (a brand-coloured
   * logo on a header of the same colour). Absent: the logo sits on the header as it is.
   */
  logoBackground: colour.optional(),
});
export type CobrandTheme = z.infer<typeof cobrandThemeSchema>;

/** Footer links in the order a co-brand lists them. */
export const FOOTER_LINK_KEYS = [
  'privacyPolicy',
  'termsOfUse',
  'cookieNotice',
  'security',
  'termsAndConditions',
  'accessibility',
  'disclaimer',
] as const;
export type FooterLinkKey = (typeof FOOTER_LINK_KEYS)[number];

export const cobrandNameSchema = z
  .string()
  .min(2)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and hyphens');

export const cobrandSchema = z.object({
  name: cobrandNameSchema,
  abbreviation: z
    .string()
    .min(2)
    .max(8)
    .regex(/^[a-z0-9]+$/, 'must be lower-case letters and digits'),
  appName: text(80),
  signInToLabel: text(80),
  /**
   * The sign-in label and application name in other languages (issue 22): locale → texts. A page in a
   * locale listed here shows them; any other page, and any field left out, shows the record's own.
   */
  texts: z
    .partialRecord(
      z.enum(SUPPORTED_LOCALES),
      z.strictObject({ appName: text(80).min(1).optional(), signInToLabel: text(80).optional() }),
    )
    .optional(),
  /** Federated SSO: the sign-in page redirects here at once. */
  fssoRedirectUrl: linkUrl.nullable().default(null),
  /** Federated logout URL shown to SSO users on the logout page. */
  fssoLogoutUrl: linkUrl.nullable().default(null),
  companySelfRegisterSupported: z.boolean().default(false),
  prospectiveAccountApplicationSupported: z.boolean().default(false),
  companySelfRegisterUrl: linkUrl.nullable().default(null),
  cardholderSelfRegisterUrl: linkUrl.nullable().default(null),
  prospectiveAccountApplicationUrl: linkUrl.nullable().default(null),
  /** Languages offered, first = the co-brand's default. */
  locales: z.array(z.enum(SUPPORTED_LOCALES)).min(1),
  footerMessage: text(500).nullable().default(null),
  copyrightMessage: text(300).nullable().default(null),
  warningMessage: text(500).nullable().default(null),
  authorizationWarning: text(500).nullable().default(null),
  poweredBy: text(120).nullable().default(null),
  managerWebsite: linkUrl.nullable().default(null),
  groupWebsite: linkUrl.nullable().default(null),
  /** Footer links in display order; each a label and a URL. */
  footerLinks: z
    .array(z.object({ key: z.enum(FOOTER_LINK_KEYS), label: text(80), url: linkUrl }))
    .max(12)
    .default([]),
  theme: cobrandThemeSchema,
});
export type CobrandInput = z.input<typeof cobrandSchema>;
export type Cobrand = z.output<typeof cobrandSchema>;

/**
 * The co-brand record the portal reads (`GET /sdportal/rest/cobrand/{name}`): spec §3 fields, the
 * footer texts flattened as `privacyPolicy` / `privacyPolicyUrl` etc., plus `footerLinks` in order
 * and the theme.
 */
export type CobrandRecord = Omit<Cobrand, 'locales'> &
  Partial<Record<FooterLinkKey | `${FooterLinkKey}Url`, string>> & {
    /** The header and footer logo that exist, as the server answers them (null: none; absent: probe). */
    logoPath?: string | null;
    footerLogoPath?: string | null;
  };

export function toCobrandRecord(cobrand: Cobrand): CobrandRecord {
  const { locales: _locales, ...rest } = cobrand;
  const record: CobrandRecord = { ...rest };
  for (const link of cobrand.footerLinks) {
    record[link.key] = link.label;
    record[`${link.key}Url`] = link.url;
  }
  return record;
}

// Zod-free constants live in cobrand-constants.ts (kept out of browser bundles' zod import).
export { cobrandText, DEFAULT_COBRAND, SPECIAL_SIGNIN_LABEL_ABBREVIATION } from './cobrand-constants.ts';
