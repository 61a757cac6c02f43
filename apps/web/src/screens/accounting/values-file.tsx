import { type AccountingValueUploadResult, LIMITS, type UploadRowProblem } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { uploadValuesFile, valuesFileUrl } from '../../api/accounting.ts';
import { ApiError } from '../../api/client.ts';
import { type DataColumn, DataTable, dataColumns } from '../../frame/data-table.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { accountingKeys } from './accounting-queries.ts';

/** The client's checks before sending: a .csv or .xlsx name and at most 4 MB (the server reads the content). */
export function checkValuesFile(file: { name: string; size: number } | undefined): string | undefined {
  if (!file) return 'upload.required';
  if (!/\.(csv|xlsx)$/i.test(file.name)) return 'upload.unsupportedFormat';
  if (file.size > LIMITS.uploadMaxBytes) return 'upload.tooLarge';
  return undefined;
}

const col = dataColumns<UploadRowProblem>();

/**
 * A code's values as a file (issue 16 item 5): download them (CSV or Excel, the upload's own columns)
 * and upload a file of them back — all or nothing, a refusal's rows listed by row, column and problem.
 */
export function ValuesFile({
  number,
  codeId,
  canUpload,
}: {
  number: string;
  codeId: string;
  canUpload: boolean;
}) {
  const { t, tCount, problemText, fieldProblemText, languageTag } = useApp();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (file: File) => uploadValuesFile(number, codeId, file),
    onSuccess: () => client.invalidateQueries({ queryKey: accountingKeys.company(number) }),
  });
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [rows, setRows] = useState<UploadRowProblem[]>([]);
  const [done, setDone] = useState<AccountingValueUploadResult | undefined>();
  const columns = useMemo((): DataColumn<UploadRowProblem>[] => {
    const count = new Intl.NumberFormat(languageTag);
    return col.columns([
      col.accessor('row', {
        header: t('app.accounting.file.row'),
        meta: { rowHeader: true, className: 'app-num' },
        cell: (cell) => count.format(cell.getValue()),
      }),
      col.accessor('field', { header: t('app.accounting.file.column') }),
      col.accessor((row) => fieldProblemText(row.problem), {
        id: 'problem',
        header: t('app.accounting.file.problem'),
      }),
    ]);
  }, [t, fieldProblemText, languageTag]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    const found = checkValuesFile(file);
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
      window.setTimeout(() => document.getElementById('values-upload-error')?.focus(), 0);
    }
  };

  return (
    <section aria-labelledby="values-file-heading">
      <h2 id="values-file-heading">{t('app.accounting.file.heading')}</h2>
      <p>{t(canUpload ? 'app.accounting.file.intro' : 'app.accounting.file.introReadOnly')}</p>
      <p className="app-actions">
        <a
          className="app-button"
          id="values-download-csv"
          href={valuesFileUrl(number, codeId, 'csv')}
          download
        >
          {t('app.accounting.file.downloadCsv')}
        </a>
        <a
          className="app-button"
          id="values-download-xlsx"
          href={valuesFileUrl(number, codeId, 'xlsx')}
          download
        >
          {t('app.accounting.file.downloadXlsx')}
        </a>
      </p>
      {canUpload ? (
        <form className="app-form" onSubmit={submit} noValidate id="values-upload-form">
          <div className={`cp-field${fileProblem ? ' cp-field--invalid' : ''}`}>
            <label className="cp-field__label" htmlFor="values-upload-file">
              {t('app.accounting.file.file')}
            </label>
            <input
              ref={input}
              id="values-upload-file"
              type="file"
              className="cp-field__input"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-invalid={fileProblem ? true : undefined}
              aria-describedby={fileProblem ? 'values-upload-file-error' : 'values-upload-file-hint'}
            />
            <p className="app-hint" id="values-upload-file-hint">
              {t('app.accounting.file.hint')}
            </p>
            <FieldError
              id="values-upload-file-error"
              message={fileProblem ? problemText(fileProblem) : undefined}
            />
          </div>
          <div className="app-actions">
            <button
              type="submit"
              className="app-button app-button--primary"
              id="values-upload-submit"
              disabled={upload.isPending}
            >
              {t('app.accounting.file.upload')}
            </button>
          </div>
        </form>
      ) : null}
      <ErrorSummary
        id="values-upload-error"
        message={problem && problem !== 'upload.rows' ? problemText(problem) : undefined}
        heading={problem === 'upload.rows' ? t('app.accounting.file.report') : undefined}
      />
      <p role="status" className="app-done" id="values-upload-done">
        {done
          ? tCount('app.accounting.file.done', done.created, String(done.updated), String(done.unchanged))
          : ''}
      </p>
      {rows.length > 0 ? (
        <DataTable
          id="values-upload-report"
          caption={t('app.accounting.file.report')}
          columns={columns}
          data={rows}
          getRowId={(row) => `${row.row}-${row.field}-${row.problem}`}
        />
      ) : null}
    </section>
  );
}
