import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/http/app-error.ts';
import { importCobrandFile } from '../src/modules/cobrand/import.ts';
import { listCobrands } from '../src/modules/cobrand/repository.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
const dir = mkdtempSync(path.join(tmpdir(), 'cp-import-'));
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const demo = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../demo/cobrands.json'), 'utf8'),
) as Record<string, unknown>[];
const base: Record<string, unknown> = {
  ...demo[1],
  name: 'importbank',
  abbreviation: 'imb',
  appName: 'Import Bank Cards',
};

function write(name: string, records: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(records, null, 2));
  return file;
}

describe('cobrand import (CLI)', () => {
  it('imports a record with its logo, served at once by the co-brand calls', async () => {
    copyFileSync(path.join(import.meta.dirname, '../demo/logos/cardportal.png'), path.join(dir, 'logo.png'));
    const file = write('ok.json', [{ ...base, logo: 'logo.png' }]);
    expect(await importCobrandFile(ctx.app.db, file)).toBe(1);
    ctx.app.cobrands.clear();
    const client = new TestClient(ctx.app);
    expect((await client.get('/sdportal/rest/cobrand/importbank')).json().appName).toBe('Import Bank Cards');
    expect(
      (
        await client.request({
          method: 'HEAD',
          url: '/sdportal/portalstatic/assets/images/logos/importbank.png',
        })
      ).statusCode,
    ).toBe(200);
    expect((await client.get('/sdportal/rest/cobrandhostabbreviation?cobrandAbbr=imb')).body).toBe(
      'importbank',
    );
  });

  it.each([
    ['a missing field', { appName: undefined }, /record 2 \(line \d+\), field appName/],
    [
      'an http URL',
      { fssoRedirectUrl: 'http://idp.example/sso' },
      /field fssoRedirectUrl: must be an https URL or a relative path/,
    ],
    [
      'a javascript URL',
      { footerLinks: [{ key: 'privacyPolicy', label: 'Privacy', url: 'javascript:alert(1)' }] },
      /field footerLinks\.0\.url/,
    ],
    [
      'markup in text',
      { footerMessage: '<img src=x onerror=alert(1)>' },
      /field footerMessage: must be plain text/,
    ],
    ['an unknown language', { locales: ['xx'] }, /field locales\.0/],
    ['a bad colour', { theme: { ...(base.theme as object), primary: 'red' } }, /field theme\.primary/],
    ['a missing logo file', { logo: 'nope.png' }, /field logo: nope\.png does not exist/],
    [
      'texts of an unknown language',
      { texts: { xx: { appName: 'Cards' } } },
      /field texts: Unrecognized key: "xx"/,
    ],
    [
      'markup in a per-language text',
      { texts: { de: { appName: '<b>Karten</b>' } } },
      /field texts\.de\.appName/,
    ],
    ['an unknown per-language field', { texts: { de: { footerMessage: 'x' } } }, /field texts\.de/],
    [
      'a bad logo plate colour',
      { theme: { ...(base.theme as object), logoBackground: 'white' } },
      /field theme\.logoBackground/,
    ],
  ])('refuses %s, naming record, line and field, and changes nothing', async (_label, change, message) => {
    const before = JSON.stringify(await listCobrands(ctx.app.db));
    const good = { ...base, name: 'firstgood', abbreviation: 'fgd' };
    const bad = { ...base, name: 'secondbad', abbreviation: 'sbd', ...change };
    const file = write('bad.json', [good, bad]);
    await expect(importCobrandFile(ctx.app.db, file)).rejects.toThrow(AppError);
    await expect(importCobrandFile(ctx.app.db, file)).rejects.toThrow(message);
    expect(JSON.stringify(await listCobrands(ctx.app.db))).toBe(before);
  });

  it('imports and exports the sign-in label and application name per language (issue 22)', async () => {
    const texts = {
      de: { signInToLabel: 'Anmelden bei', appName: 'Import-Bank-Karten' },
      fr: { appName: 'Cartes Import Bank' },
    };
    const file = write('texts.json', [{ ...base, name: 'textbank', abbreviation: 'txb', texts }]);
    expect(await importCobrandFile(ctx.app.db, file)).toBe(1);
    const exported = (await listCobrands(ctx.app.db)).find((c) => c.name === 'textbank');
    expect(exported?.texts).toEqual(texts);
    // the export's shape is the import's: exporting and importing again changes nothing
    const again = write('again.json', [exported]);
    expect(await importCobrandFile(ctx.app.db, again)).toBe(1);
    expect((await listCobrands(ctx.app.db)).find((c) => c.name === 'textbank')).toEqual(exported);
    ctx.app.cobrands.clear();
    const record = (await new TestClient(ctx.app).get('/sdportal/rest/cobrand/textbank')).json();
    expect(record.texts).toEqual(texts);
  });

  it('refuses a file that is not JSON, and duplicate names', async () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '[{"name": ');
    await expect(importCobrandFile(ctx.app.db, file)).rejects.toThrow(/not valid JSON/);
    await expect(importCobrandFile(ctx.app.db, write('dup.json', [base, base]))).rejects.toThrow(
      /appears twice/,
    );
  });
});
