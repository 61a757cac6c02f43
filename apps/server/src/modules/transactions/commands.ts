import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { auditEvents } from '../../db/schema.ts';
import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { formatOf } from './file-records.ts';
import { importTransactions } from './import.ts';
import { describeProblem } from './report.ts';

/** The transaction commands of the admin CLI (DESIGN §7 run contract). */
export const transactionCommands = [
  defineCommand({
    name: 'transactions import',
    synopsis: 'FILE [--issuer NUMBER]',
    summary: `import an issuer's transaction file (CSV with a header row, or XML
with a Transaction element per record), all or nothing: prints
"imported N, duplicates M, rejected K", and every rejected row's
line and field; a refused file (exit 2) imports nothing`,
    options: { issuer: { type: 'string' } },
    positionals: ['FILE'],
    async run({ db, database, io, texts, secrets }, { values, positionals }) {
      const [file] = positionals;
      if (!file) throw new CliInputError('transactions import needs FILE', true);
      let head: Buffer;
      try {
        const handle = await open(file, 'r');
        try {
          head = Buffer.alloc(64);
          const { bytesRead } = await handle.read(head, 0, 64, 0);
          head = head.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      } catch (error) {
        throw new CliInputError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
      }
      const vault = (await secrets()).cards;
      const report = await importTransactions(
        database,
        vault,
        createReadStream(file, { highWaterMark: 256 * 1024 }),
        { format: formatOf(file, head), fileName: file, issuerNumber: values.issuer, byUserPk: null },
      );
      const say = (key: string) => texts.text('en_US', 'Messages', `validation.${key}`) || key;
      io.out(`imported ${report.imported}, duplicates ${report.duplicates}, rejected ${report.rejected}`);
      if (report.ignored.length > 0) io.err(`ignored columns: ${report.ignored.join(', ')}`);
      for (const p of report.problems) io.err(describeProblem(p, say));
      if (report.rejected > report.problems.length && report.problems.length > 0)
        io.err(`… and ${report.rejected - report.problems.length} more rejected rows`);
      await db.insert(auditEvents).values({
        event: report.outcome === 'imported' ? 'transactions.imported' : 'transactions.refused',
        detail: {
          by: 'cli',
          file,
          sha256: report.fileSha256,
          format: report.format,
          rows: report.rows,
          imported: report.imported,
          duplicates: report.duplicates,
          rejected: report.rejected,
          ...(report.fileProblem ? { problem: report.fileProblem.problem } : {}),
        },
        entity: 'transaction-import',
        entityId: report.importId !== undefined ? String(report.importId) : null,
      });
      if (report.outcome === 'refused') {
        const why = report.fileProblem
          ? describeProblem(report.fileProblem, say)
          : `${report.rejected} rows rejected`;
        throw new CliInputError(`file refused, nothing imported: ${why}`);
      }
    },
  }),
];
