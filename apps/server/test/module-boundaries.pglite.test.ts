import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CRUISED,
  cruiseTree,
  documentedGraphs,
  REPO_ROOT,
  renderGraphs,
} from '../../../scripts/architecture.ts';

/**
 * The module boundaries `npm run lint` enforces (dependency-cruiser, .dependency-cruiser.cjs;
 * docs/architecture.md). Runs once, in the PGlite project: it needs no database.
 */

/** Files that each break one boundary, written into a copy of the tree; and what each must report. */
const PROBES: { file: string; text: string; expected: string[] }[] = [
  {
    // login may import users, but only its index.
    file: 'apps/server/src/modules/login/zz-probe-internal.ts',
    text: "export { createUser } from '../users/users.ts';\n",
    expected: ['server-module-internals: modules/login/zz-probe-internal.ts → modules/users/users.ts'],
  },
  {
    // health imports no other module.
    file: 'apps/server/src/modules/health/zz-probe-edge.ts',
    text: "export { createUser } from '../users/index.ts';\n",
    expected: [
      'server-undeclared-edge-from-health: modules/health/zz-probe-edge.ts → modules/users/index.ts',
    ],
  },
  {
    // A cycle is reported once, whichever of its files it is found from.
    file: 'apps/server/src/modules/health/zz-probe-cycle-a.ts',
    text: "import { b } from './zz-probe-cycle-b.ts';\nexport const a = () => b;\n",
    expected: ['no-circular: modules/health/zz-probe-cycle-a.ts ↔ modules/health/zz-probe-cycle-b.ts'],
  },
  {
    file: 'apps/server/src/modules/health/zz-probe-cycle-b.ts',
    text: "import { a } from './zz-probe-cycle-a.ts';\nexport const b = () => a;\n",
    expected: [],
  },
  {
    file: 'apps/server/src/kernel/zz-probe.ts',
    text: "export { createUser } from '../modules/users/index.ts';\n",
    expected: ['server-kernel-imports-feature: kernel/zz-probe.ts → modules/users/index.ts'],
  },
  {
    file: 'apps/server/src/demo/zz-probe.ts',
    text: "export { createUser } from '../modules/users/users.ts';\n",
    expected: ['server-module-internals-from-outside: demo/zz-probe.ts → modules/users/users.ts'],
  },
  {
    file: 'apps/server/src/modules/health/zz-probe-root.ts',
    text: "export { buildApp } from '../../app.ts';\n",
    expected: ['server-module-imports-composition: modules/health/zz-probe-root.ts → app.ts'],
  },
  {
    file: 'apps/server/src/modules/zz-probe/index.ts',
    text: "export { createUser } from '../users/index.ts';\n",
    expected: ['server-module-not-in-graph: modules/zz-probe/index.ts → modules/users/index.ts'],
  },
  {
    // audit may import no other screen, and never another screen's files.
    file: 'apps/web/src/screens/audit/zz-probe.ts',
    text: "export * from '../people/user-form.ts';\n",
    expected: [
      'web-screen-internals: screens/audit/zz-probe.ts → screens/people/user-form.ts',
      'web-undeclared-edge-from-audit: screens/audit/zz-probe.ts → screens/people/user-form.ts',
    ],
  },
  {
    file: 'apps/web/src/frame/zz-probe.ts',
    text: "export { PeopleSearchScreen } from '../screens/people/index.ts';\n",
    expected: ['web-kernel-imports-screen: frame/zz-probe.ts → screens/people/index.ts'],
  },
  {
    file: 'apps/web/src/zz-probe.ts',
    text: "export { PeopleSearchScreen } from './screens/people/people-search-screen.tsx';\n",
    expected: ['web-screen-internals-from-outside: zz-probe.ts → screens/people/people-search-screen.tsx'],
  },
];

const short = (file: string) => file.replace(/^apps\/(server|web)\/src\//, '');

describe('module boundaries (npm run lint: dependency-cruiser)', () => {
  it('the tree breaks no boundary, and docs/architecture.md shows its graph as it is', async () => {
    const result = await cruiseTree();
    expect(result.summary.totalCruised).toBeGreaterThan(150);
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    // `npm run docs:architecture` redraws it.
    expect(documentedGraphs()).toBe(renderGraphs(result));
  });

  it('reports an import into a module, an undeclared edge, a cycle and a kernel import, by rule', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'module-boundaries-'));
    try {
      for (const dir of CRUISED) cpSync(path.join(REPO_ROOT, dir), path.join(copy, dir), { recursive: true });
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
      for (const probe of PROBES) {
        mkdirSync(path.dirname(path.join(copy, probe.file)), { recursive: true });
        writeFileSync(path.join(copy, probe.file), probe.text);
      }
      const result = await cruiseTree(copy);
      const reported = result.summary.violations
        .filter((v) => v.from.includes('zz-probe') || v.to.includes('zz-probe'))
        .map((v) =>
          v.rule.name === 'no-circular'
            ? `no-circular: ${[short(v.from), short(v.to)].sort().join(' ↔ ')}`
            : `${v.rule.name}: ${short(v.from)} → ${short(v.to)}`,
        );
      expect(reported.sort()).toEqual(PROBES.flatMap((p) => p.expected).sort());
      // Without the probes the copy is as clean as the tree.
      expect(result.summary.violations.length).toBe(reported.length);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
