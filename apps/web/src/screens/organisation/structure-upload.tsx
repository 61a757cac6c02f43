import { LIMITS, type UploadResult, type UploadRowProblem } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { uploadStructure } from '../../api/organisations.ts';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { useApp } from '../../lib/app-context.tsx';

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
export function StructureUpload({ company, onUploaded }: { company: string; onUploaded: () => void }) {
  const { t, problemText, fieldProblemText, languageTag } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [rows, setRows] = useState<UploadRowProblem[]>([]);
  const [done, setDone] = useState<UploadResult | undefined>();
  const [busy, setBusy] = useState(false);
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
    setBusy(true);
    try {
      setDone(await uploadStructure(company, file));
      onUploaded();
    } catch (error) {
      if (error instanceof ApiError) {
        setProblem(error.code);
        setRows(error.rows ?? []);
      } else setProblem('error.generic');
      window.setTimeout(() => document.getElementById('upload-error')?.focus(), 0);
    } finally {
      setBusy(false);
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
          <button type="submit" className="app-button app-button--primary" id="upload-submit" disabled={busy}>
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
        {done ? t('app.org.upload.done', number.format(done.created), number.format(done.updated)) : ''}
      </p>
      {rows.length > 0 ? (
        <TableWrap captionId="upload-report-caption">
          <table className="app-table" id="upload-report">
            <caption id="upload-report-caption">{t('app.org.upload.report')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('app.org.upload.row')}</th>
                <th scope="col">{t('app.org.upload.column')}</th>
                <th scope="col">{t('app.org.upload.problem')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.row}-${row.field}-${row.problem}`}>
                  <th scope="row">{number.format(row.row)}</th>
                  <td>{row.field}</td>
                  <td>{fieldProblemText(row.problem)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </section>
  );
}
