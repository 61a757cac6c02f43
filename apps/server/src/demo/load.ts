import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cobrandSchema } from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { serverSecrets } from '../db/schema.ts';
import { saveCobrands } from '../modules/cobrand/repository.ts';
import type { Secrets } from '../shared/secrets.ts';
import { assignToken } from '../shared/soft-token.ts';
import { createUser, type NewUser } from '../shared/users.ts';

/** The password of every demo user (README). */
export const DEMO_PASSWORD = 'Cardportal#2026';
/** Every demo user's security question is q1; the answer (README). */
export const DEMO_ANSWER = 'Springfield';
/** The demo token user's TOTP secret (base32) and default PIN, so any authenticator app can be the token. */
export const DEMO_TOKEN_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const DEMO_TOKEN_PIN = '2468';

/** Demo users for every login type and state the portal's screens need (README lists them). */
export const DEMO_USERS: (Omit<NewUser, 'password' | 'cobrand'> & { cobrand?: string; note: string })[] = [
  {
    userId: 'active01',
    email: 'ada.active@example.com',
    firstName: 'Ada',
    lastName: 'Active',
    userType: 'A',
    note: 'active cardholder, password sign-in',
  },
  {
    userId: 'admin01',
    email: 'carl.admin@example.com',
    firstName: 'Carl',
    lastName: 'Admin',
    userType: 'C',
    note: 'company program administrator',
  },
  {
    userId: 'locked01',
    email: 'lee.locked@example.com',
    firstName: 'Lee',
    lastName: 'Locked',
    status: 'Locked',
    note: 'locked by an administrator: shows the locked screen',
  },
  {
    userId: 'expired01',
    email: 'eve.expired@example.com',
    firstName: 'Eve',
    lastName: 'Expired',
    expired: true,
    note: 'password expired: must change it',
  },
  {
    userId: 'firstlog01',
    email: 'fay.first@example.com',
    firstName: 'Fay',
    lastName: 'First',
    firstLogin: true,
    note: 'first login: must change the password',
  },
  {
    userId: 'ssouser01',
    email: 'sam.sso@example.com',
    firstName: 'Sam',
    lastName: 'Single',
    sso: true,
    note: 'SSO user (logout page hides return-to-login)',
  },
  {
    userId: 'otpuser01',
    email: 'otto.otp@example.com',
    firstName: 'Otto',
    lastName: 'Passcode',
    loginType: 'otp-2fa',
    note: 'e-mailed one-time passcode (otp-2fa)',
  },
  {
    userId: 'token01',
    email: 'tia.token@example.com',
    firstName: 'Tia',
    lastName: 'Token',
    loginType: 'token',
    note: 'software token (PIN + tokencode)',
  },
  {
    userId: 'bncuser01',
    email: 'bruno.norte@example.com',
    firstName: 'Bruno',
    lastName: 'Norte',
    cobrand: 'banconorte',
    locale: 'es',
    note: 'user of the bnc co-brand',
  },
];

const MARKER = 'demo-loaded';

/** Loads the demo co-brands, images and users once (a marker row remembers it). */
export async function loadDemoData(db: Db, config: Config, secrets: Secrets): Promise<boolean> {
  const [done] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, MARKER));
  if (done) return false;
  const dir = config.demoDir;
  const raw: unknown = JSON.parse(readFileSync(path.join(dir, 'cobrands.json'), 'utf8'));
  const records = cobrandSchema.array().parse(raw);
  const assets: { path: string; bytes: Uint8Array }[] = [];
  for (const folder of ['logos', 'footers']) {
    const folderPath = path.join(dir, folder);
    if (!existsSync(folderPath)) continue;
    for (const file of readdirSync(folderPath)) {
      if (/\.(png|jpg|gif)$/.test(file))
        assets.push({ path: `${folder}/${file}`, bytes: readFileSync(path.join(folderPath, file)) });
    }
  }
  await saveCobrands(db, records, assets);
  const names = new Set(records.map((r) => r.name));
  for (const { note: _note, cobrand, ...user } of DEMO_USERS) {
    const created = await createUser(db, {
      ...user,
      password: DEMO_PASSWORD,
      question: 'q1',
      answer: DEMO_ANSWER,
      cobrand: cobrand && names.has(cobrand) ? cobrand : 'cardportal',
    });
    if (created.loginType === 'token') {
      await assignToken(db, secrets, created, {
        secretBase32: DEMO_TOKEN_SECRET,
        defaultPin: DEMO_TOKEN_PIN,
      });
    }
  }
  await db
    .insert(serverSecrets)
    .values({ name: MARKER, value: new Date().toISOString() })
    .onConflictDoNothing();
  return true;
}
