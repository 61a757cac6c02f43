import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TextBundles } from '../src/text/bundles.ts';

const bundlesDir = path.resolve(import.meta.dirname, '../../../packages/i18n/bundles');
const scratch = mkdtempSync(path.join(tmpdir(), 'cp-bundles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** text/bundles.ts: every file checked at start, a language's bundles built at its first use. */
describe('text bundles', () => {
  it('builds a language at its first use, over English, and answers the same afterwards', () => {
    const texts = new TextBundles(bundlesDir);
    const built = (texts as unknown as { built: Set<string> }).built;
    expect([...built]).toEqual(['en_US']);
    const french = texts.get('fr', 'PortalLabels');
    expect(built.has('fr')).toBe(true);
    expect(french.texts['common.skipToMain']).toBe('Aller au contenu principal');
    expect(texts.get('fr', 'PortalLabels')).toBe(french);
    // A namespace of the application builds its language too, and keeps only its own keys.
    const shell = texts.namespace('de', 'shell');
    expect(built.has('de')).toBe(true);
    expect(Object.keys(shell.texts).length).toBeGreaterThan(0);
    // A language nobody supports falls back to English without building anything.
    expect(texts.get('xx' as never, 'Messages')).toBe(texts.get('en_US', 'Messages'));
    expect(built.has('xx')).toBe(false);
  });

  it('refuses to start on a broken bundle of a language nobody has used yet', () => {
    const dir = path.join(scratch, 'broken');
    cpSync(bundlesDir, dir, { recursive: true });
    writeFileSync(path.join(dir, 'ja', 'Messages.json'), '["not", "an", "object"]');
    expect(() => new TextBundles(dir)).toThrow(/ja.Messages\.json: not a JSON object/);
  });
});
