import { LIMITS, type TransactionImportResult, type UploadRowProblem } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { type DataColumn, DataTable, dataColumns } from '../../frame/data-table.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type App, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { useImportTransactions } from './transactions-queries.ts';

const col = dataColumns<UploadRowProblem>();

/** The per-row report: the file's line (names the problem's row), column, problem. */
function reportColumns({
  t,
  fieldProblemText,
  languageTag,
}: Pick<App, 't' | 'fieldProblemText' | 'languageTag'>): DataColumn<UploadRowProblem>[] {
  const number = new Intl.NumberFormat(languageTag);
  return col.columns([
    col.accessor('row', {
      header: t('app.transactions.import.line'),
      meta: { rowHeader: true, className: 'app-num' },
      cell: (cell) => number.format(cell.getValue()),
    }),
    col.accessor('field', { header: t('app.transactions.import.column') }),
    col.accessor((row) => fieldProblemText(row.problem), {
      id: 'problem',
      header: t('app.transactions.import.problem'),
    }),
  ]);
}

/** The client's checks before sending: a `.csv` or `.xml` name and at most 4 MB (the server reads the content). */
export function checkTransactionFile(file: { name: string; size: number } | undefined): string | undefined {
  if (!file) return 'upload.required';
  if (!/\.(csv|xml)$/i.test(file.name)) return 'upload.unsupportedFormat';
  if (file.size > LIMITS.uploadMaxBytes) return 'upload.tooLarge';
  return undefined;
}

/**
 * An issuer's transaction file, uploaded (issue 15 item 2): CSV or XML, at most 4 MB, all or nothing;
 * a refusal shows the catalogue's message, and the rows in error as a table of line, column and
 * problem. An issuer administrator imports for its own issuer; an issuer group administrator names
 * one of its group's; the system administrator may name one.
 */
export function TransactionImportScreen() {
  const { t, problemText, fieldProblemText, languageTag, user, format } = useApp();
  usePageTitle(t('app.transactions.import.heading'));
  const input = useRef<HTMLInputElement>(null);
  const [issuer, setIssuer] = useState('');
  const upload = useImportTransactions();
  const columns = useMemo(
    () => reportColumns({ t, fieldProblemText, languageTag }),
    [t, fieldProblemText, languageTag],
  );
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const [issuerProblem, setIssuerProblem] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [rows, setRows] = useState<UploadRowProblem[]>([]);
  const [done, setDone] = useState<TransactionImportResult | undefined>();
  const asksIssuer = user.userType !== 'I';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    const found = checkTransactionFile(file);
    setFileProblem(found);
    setIssuerProblem(undefined);
    setProblem(undefined);
    setRows([]);
    setDone(undefined);
    if (found || !file) {
      input.current?.focus();
      return;
    }
    try {
      setDone(await upload.mutateAsync({ file, issuer: asksIssuer ? issuer.trim() : undefined }));
    } catch (error) {
      const code = problemOf(error);
      const onIssuer = error instanceof ApiError && error.fieldErrors?.issuer;
      if (onIssuer) {
        setIssuerProblem(onIssuer);
        document.getElementById('import-issuer')?.focus();
        return;
      }
      setProblem(code);
      setRows(error instanceof ApiError ? (error.rows ?? []) : []);
      window.setTimeout(() => document.getElementById('import-error')?.focus(), 0);
    }
  };

  return (
    <>
      <h1>{t('app.transactions.import.heading')}</h1>
      <p>
        <Link to="/transactions">{t('app.transactions.view.back')}</Link>
      </p>
      <p id="import-intro">
        {t('app.transactions.import.intro', format.number(LIMITS.uploadMaxBytes / 1024 / 1024))}
      </p>
      <form className="app-form" onSubmit={submit} noValidate id="import-form">
        <div className={`cp-field${fileProblem ? ' cp-field--invalid' : ''}`}>
          <label className="cp-field__label" htmlFor="import-file">
            {t('app.transactions.import.file')}
          </label>
          <input
            ref={input}
            id="import-file"
            type="file"
            className="cp-field__input"
            accept=".csv,.xml,text/csv,application/xml,text/xml"
            aria-invalid={fileProblem ? true : undefined}
            aria-describedby={fileProblem ? 'import-file-error' : undefined}
          />
          <FieldError id="import-file-error" message={fileProblem ? problemText(fileProblem) : undefined} />
        </div>
        {asksIssuer ? (
          <div className={`cp-field${issuerProblem ? ' cp-field--invalid' : ''}`}>
            <label className="cp-field__label" htmlFor="import-issuer">
              {t('app.transactions.import.issuer')}
            </label>
            <input
              id="import-issuer"
              className="cp-field__input"
              inputMode="numeric"
              value={issuer}
              onChange={(event) => setIssuer(event.target.value)}
              aria-invalid={issuerProblem ? true : undefined}
              aria-describedby={`import-issuer-hint${issuerProblem ? ' import-issuer-error' : ''}`}
            />
            <p className="cp-field__hint app-hint" id="import-issuer-hint">
              {t(
                user.userType === 'Z'
                  ? 'app.transactions.import.issuerOptional'
                  : 'app.transactions.import.issuerHint',
              )}
            </p>
            <FieldError
              id="import-issuer-error"
              message={issuerProblem ? problemText(issuerProblem) : undefined}
            />
          </div>
        ) : null}
        <div className="app-actions">
          <button
            type="submit"
            className="app-button app-button--primary"
            id="import-submit"
            disabled={upload.isPending}
          >
            {t('app.transactions.import.submit')}
          </button>
        </div>
      </form>
      <ErrorSummary
        id="import-error"
        message={problem && problem !== 'upload.rows' ? problemText(problem) : undefined}
        heading={problem === 'upload.rows' ? t('app.transactions.import.report') : undefined}
      />
      <div role="status" className="app-done" id="import-done">
        {done ? (
          <>
            <p>
              {t(
                'app.transactions.import.done',
                format.number(done.imported),
                format.number(done.duplicates),
                format.number(done.rows),
              )}
            </p>
            {done.ignored.length > 0 ? (
              <p>{t('app.transactions.import.ignored', done.ignored.join(', '))}</p>
            ) : null}
          </>
        ) : null}
      </div>
      {rows.length > 0 ? (
        <DataTable
          id="import-report"
          caption={t('app.transactions.import.report')}
          columns={columns}
          data={rows}
          getRowId={(row) => `${row.row}-${row.field}-${row.problem}`}
        />
      ) : null}
    </>
  );
}
