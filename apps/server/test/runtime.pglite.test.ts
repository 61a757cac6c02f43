import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

/** docs/runtime.md: the repository brings Node.js 24 and every npm script runs on it. */
describe('runtime', () => {
  it('runs the tests on the Node.js the repository pins, whatever the machine has', () => {
    const pinned = json('node_modules/node/package.json').version as string;
    expect(json('package.json').engines.node).toBe('>=24');
    expect(Number(pinned.split('.')[0])).toBe(24);
    expect(process.versions.node).toBe(pinned);
  });

  it('declares the install scripts the build needs and no others', () => {
    expect(json('package.json').allowScripts).toEqual({ esbuild: true, node: true });
  });
});
