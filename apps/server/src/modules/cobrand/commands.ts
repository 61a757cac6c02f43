import path from 'node:path';
import { defineCommand } from '../../kernel/cli.ts';
import { importCobrandFile } from './import.ts';
import { listCobrands } from './repository.ts';

/** The co-brand commands of the admin CLI (docs/cobrands.md). */
export const cobrandCommands = [
  defineCommand({
    name: 'cobrand list',
    summary: 'list co-brands',
    async run({ db, io }) {
      for (const c of await listCobrands(db)) {
        io.out(`${c.name}\t${c.abbreviation}\t${c.locales.join(',')}\t${c.appName}`);
      }
    },
  }),
  defineCommand({
    name: 'cobrand import',
    synopsis: 'FILE',
    summary: 'import co-brands (JSON array of records, docs/cobrands.md) — all or nothing',
    positionals: ['FILE'],
    async run({ db, io }, { positionals: [file = ''] }) {
      const count = await importCobrandFile(db, path.resolve(file));
      io.out(`imported ${count} co-brand(s)`);
    },
  }),
  defineCommand({
    name: 'cobrand export',
    summary: 'print every co-brand as JSON',
    async run({ db, io }) {
      io.out(JSON.stringify(await listCobrands(db), null, 2));
    },
  }),
];
