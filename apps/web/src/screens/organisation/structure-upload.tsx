import { LIMITS, type UploadResult, type UploadRowProblem } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { type DataColumn, DataTable, dataColumns } from '../../frame/data-table.tsx';
import { type App, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { useUploadStructure } from './organisation-queries.ts';

const col = dataColumns<UploadRowProblem>();

/** The per-row report: row (names the problem's row), column, problem. A complete list: sorts itself. */
function reportColumns({
  t,
  fieldProblemText,
  languageTag,
}: Pick<App, 't' | 'fieldProblemText' | 'languageTag'>): DataColumn<UploadRowProblem>[] {
  const number = new Intl.NumberFormat(languageTag);
  return col.columns([
    col.accessor('row', {
      header: t('app.org.upload.row'),
      meta: { rowHeader: true, className: 'app-num' },
      cell: (cell) => number.format(cell.getValue()),
    }),
    col.accessor('field', { header: t('app.org.upload.column') }),
    col.accessor((row) => fieldProblemText(row.problem), {
      id: 'problem',
      header: t('app.org.upload.problem'),
    }),
  ]);
}

/** The client's checks before sending: an `.xlsx` name and at most 4 MB (the server checks again). */
export function checkUploadFile(file: { name: string; size: number } | undefined): string | undefined {
  if (!file) return 'upload.required';
  if (!/\.xlsx$/i.test(file.name)) return 'upload.unsupportedFormat';
  if (file.size > LIMITS.uploadMaxBytes) return 'upload.tooLarge';
  return undefined;
}

/**
 * Reporting-structure upload: a workbook sent as bytes; a refusal shows the catalogue's message, and
 * row problems (all or nothing) as a table of row, column and problem.
 */
export function StructureUpload({ company }: { company: string }) {
  const { t, tCount, problemText, fieldProblemText, languageTag } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadStructure(company);
  const columns = useMemo(
    () => reportColumns({ t, fieldProblemText, languageTag }),
    [t, fieldProblemText, languageTag],
  );
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [rows, setRows] = useState<UploadRowProblem[]>([]);
  const [done, setDone] = useState<UploadResult | undefined>();
  const number = new Intl.NumberFormat(languageTag);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    const found = checkUploadFile(file);
    setFileProblem(found);
    setProblem(undefined);
    setRows([]);
    setDone(undefined);
    if (found || !file) {
      input.current?.focus();
      return;
    }
    try {
      setDone(await upload.mutateAsync(file));
    } catch (error) {
      setProblem(problemOf(error));
      setRows(error instanceof ApiError ? (error.rows ?? []) : []);
      window.setTimeout(() => document.getElementById('upload-error')?.focus(), 0);
    }
  };

  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading">{t('app.org.upload.heading')}</h2>
      <form className="app-form" onSubmit={submit} noValidate id="upload-form">
        <div className={`cp-field${fileProblem ? ' cp-field--invalid' : ''}`}>
          <label className="cp-field__label" htmlFor="upload-file">
            {t('app.org.upload.file')}
          </label>
          <input
            ref={input}
            id="upload-file"
            type="file"
            className="cp-field__input"
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-invalid={fileProblem ? true : undefined}
            aria-describedby={fileProblem ? 'upload-file-error' : undefined}
          />
          <FieldError id="upload-file-error" message={fileProblem ? problemText(fileProblem) : undefined} />
        </div>
        <div className="app-actions">
          <button
            type="submit"
            className="app-button app-button--primary"
            id="upload-submit"
            disabled={upload.isPending}
          >
            {t('app.org.upload.submit')}
          </button>
        </div>
      </form>
      <ErrorSummary
        id="upload-error"
        message={problem && problem !== 'upload.rows' ? problemText(problem) : undefined}
        heading={problem === 'upload.rows' ? t('app.org.upload.report') : undefined}
      />
      <p role="status" className="app-done" id="upload-done">
        {done ? tCount('app.org.upload.done', done.created, number.format(done.updated)) : ''}
      </p>
      {rows.length > 0 ? (
        <DataTable
          id="upload-report"
          caption={t('app.org.upload.report')}
          columns={columns}
          data={rows}
          getRowId={(row) => `${row.row}-${row.field}-${row.problem}`}
        />
      ) : null}
    </section>
  );
}
