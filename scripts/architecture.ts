/**
 * docs/architecture.md's module graphs, generated from dependency-cruiser's analysis of the real tree
 * with the lint's own configuration (.dependency-cruiser.cjs): `npm run docs:architecture` rewrites
 * the section between the markers; apps/server/test/module-boundaries.pglite.test.ts fails when the
 * document no longer matches the code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ARCHITECTURE_DOC = path.join(REPO_ROOT, 'docs/architecture.md');
export const BEGIN_MARKER =
  '<!-- BEGIN GENERATED: module graphs (npm run docs:architecture; scripts/architecture.ts) -->';
export const END_MARKER = '<!-- END GENERATED -->';

/** What the lint cruises. */
export const CRUISED = ['apps/server/src', 'apps/web/src'];

/**
 * Cruises `CRUISED` under `baseDir` (the repository, or a copy of it) with the lint's configuration,
 * rules included: the result lists the violations (`summary.violations`) and every dependency.
 */
export async function cruiseTree(baseDir = REPO_ROOT): Promise<ICruiseResult> {
  const options: ICruiseOptions = {
    ...(await extractDepcruiseOptions(path.join(REPO_ROOT, '.dependency-cruiser.cjs'))),
    baseDir,
  };
  const { output } = await cruise(CRUISED, options);
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a cruise result');
  return output;
}

interface Part {
  /** Where the part's units (modules, screens) live. */
  base: string;
  /**
   * The part's kernel; its first group names the kernel folder or file (the table's last column). Left
   * out for the SPA, whose screens all use its whole kernel.
   */
  kernel?: RegExp;
}

const SERVER: Part = {
  base: 'apps/server/src/modules/',
  kernel: /^apps\/server\/src\/((?:http|db|security|text|kernel)\/|config\.ts$)/,
};
const WEB: Part = { base: 'apps/web/src/screens/' };

const unitOf = (part: Part, file: string) =>
  file.startsWith(part.base) ? file.slice(part.base.length).split('/')[0] : undefined;

/** Units (modules or screens), their edges to each other, and the kernel parts each one imports. */
function collapse(result: ICruiseResult, part: Part) {
  const units = new Map<string, { uses: Set<string>; kernel: Set<string> }>();
  const unit = (name: string) => {
    let found = units.get(name);
    if (!found) {
      found = { uses: new Set(), kernel: new Set() };
      units.set(name, found);
    }
    return found;
  };
  for (const module of result.modules) {
    const from = unitOf(part, module.source);
    if (!from) continue;
    unit(from);
    for (const dependency of module.dependencies) {
      const to = unitOf(part, dependency.resolved);
      if (to && to !== from) unit(from).uses.add(to);
      const kernel = part.kernel && dependency.resolved.match(part.kernel)?.[1];
      if (kernel) unit(from).kernel.add(kernel);
    }
  }
  return [...units].sort(([a], [b]) => a.localeCompare(b));
}

/** A markdown table with its columns padded, as the formatter (Biome) writes it. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

const nodeId = (name: string) => `m_${name.replace(/[^a-zA-Z0-9]/g, '_')}`;
const list = (items: Iterable<string>) => [...items].sort().join(', ') || '—';

function section(result: ICruiseResult, part: Part, title: string, unitName: string): string {
  const units = collapse(result, part);
  const usedBy = new Map<string, string[]>();
  for (const [name, { uses }] of units)
    for (const to of uses) usedBy.set(to, [...(usedBy.get(to) ?? []), name]);
  const lines = [`### ${title}`, '', '```mermaid', 'flowchart LR'];
  for (const [name] of units) lines.push(`  ${nodeId(name)}["${name}"]`);
  for (const [name, { uses }] of units) {
    for (const to of [...uses].sort()) lines.push(`  ${nodeId(name)} --> ${nodeId(to)}`);
  }
  lines.push('```', '');
  const header = [unitName, 'imports', 'imported by', ...(part.kernel ? ['kernel it uses'] : [])];
  const rows = units.map(([name, { uses, kernel }]) => [
    name,
    list(uses),
    list(usedBy.get(name) ?? []),
    ...(part.kernel ? [list(kernel)] : []),
  ]);
  return [...lines, ...table(header, rows)].join('\n');
}

/** The generated section (markers included), from a cruise result. */
export function renderGraphs(result: ICruiseResult): string {
  return [
    BEGIN_MARKER,
    '',
    section(result, SERVER, 'Server modules (`apps/server/src/modules/*`)', 'module'),
    '',
    section(result, WEB, 'Application screens (`apps/web/src/screens/*`)', 'screen'),
    '',
    END_MARKER,
  ].join('\n');
}

/** The section as docs/architecture.md holds it now. */
export function documentedGraphs(doc = readFileSync(ARCHITECTURE_DOC, 'utf8')): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error(`${ARCHITECTURE_DOC} lacks the generated section's markers`);
  return doc.slice(begin, end + END_MARKER.length);
}

async function main(): Promise<void> {
  const result = await cruiseTree();
  const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
  const next = doc.replace(documentedGraphs(doc), renderGraphs(result));
  if (next !== doc) writeFileSync(ARCHITECTURE_DOC, next);
  console.log(
    next === doc ? 'docs/architecture.md is up to date' : 'docs/architecture.md: module graphs rewritten',
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
