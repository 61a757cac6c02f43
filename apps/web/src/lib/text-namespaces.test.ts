import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_TEXT_NAMESPACES, textNamespaceOf } from '@cardportal/domain';
import { describe, expect, it } from 'vitest';
import { TEXTS } from '../test/support.tsx';

const src = path.resolve(import.meta.dirname, '..');
const families = [
  ...new Set(Object.keys(TEXTS).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, ''))),
];

/** Every key a source file names: a literal key, or every key under a prefix it builds a key from. */
function keysNamedIn(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const named = new Set<string>();
  for (const [, literal = '', template] of code.matchAll(
    /['"`]((?:app|common|validation|catalogue|securityQuestion)\.[A-Za-z0-9_.]*)(\$\{)?/g,
  )) {
    if (!template && families.includes(literal)) named.add(literal);
    else {
      const prefix = template || literal.endsWith('.') ? literal : `${literal}.`;
      for (const key of families) if (key.startsWith(prefix)) named.add(key);
    }
  }
  return [...named];
}

const sources = (readdirSync(src, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('test'))
  .map((file) => ({ file, folder: /^screens[\\/]([^\\/]+)/.exec(file)?.[1] }));

describe('text namespaces (docs/text.md)', () => {
  it('each screen folder is a namespace, beside the shell', () => {
    const folders = new Set(sources.map((s) => s.folder).filter(Boolean));
    expect([...folders, 'shell'].sort()).toEqual([...APP_TEXT_NAMESPACES].sort());
  });

  it('a screen folder uses only the shell’s keys and its own; the frame only the shell’s', () => {
    const wrong: string[] = [];
    for (const { file, folder } of sources) {
      for (const key of keysNamedIn(readFileSync(path.join(src, file), 'utf8'))) {
        const namespace = textNamespaceOf(key);
        if (namespace !== 'shell' && namespace !== folder) wrong.push(`${file}: ${key} (${namespace})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds a key used outside its namespace', () => {
    expect(keysNamedIn("t('app.people.view.heading', id)")).toEqual(['app.people.view.heading']);
    expect(keysNamedIn(`t(\`app.roles.done.$\{how}\`)`)).toContain('app.roles.done.created');
    expect(keysNamedIn("t('app.accounts.cardholders.count')")).toEqual(['app.accounts.cardholders.count']);
    expect(textNamespaceOf('app.people.view.heading')).toBe('people');
    expect(textNamespaceOf('app.people.search.count_few')).toBe('people');
    expect(textNamespaceOf('app.people.action.edit')).toBe('shell');
    expect(textNamespaceOf('validation.requiredField')).toBe('shell');
    expect(textNamespaceOf('signin.heading')).toBeUndefined();
  });
});
