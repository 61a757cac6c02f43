import { type CardholderDetail, cardholderSchema, toFieldErrors } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { getCardholder, setCardholderActive, updateCardholder } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { AccountStatusPill, codeOfError, fullName } from './shared.tsx';

type Field = 'name1' | 'name2' | 'orgPoint';

/** One cardholder: names, org point, status, its accounts (masked); edit and (de)activate when allowed. */
export function CardholderViewScreen() {
  const { t, problemText, fieldProblemText } = useApp();
  const { number = '', id = '' } = useParams();
  const [holder, setHolder] = useState<CardholderDetail | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Record<Field, string>>({ name1: '', name2: '', orgPoint: '' });
  const [fieldProblems, setFieldProblems] = useState<Partial<Record<Field, string>>>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  usePageTitle(holder ? fullName(holder) : t('app.accounts.cardholder.heading'));

  useEffect(() => {
    const controller = new AbortController();
    setHolder(undefined);
    setProblem(undefined);
    getCardholder(number, id, controller.signal).then(setHolder, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(codeOfError(error));
    });
    return () => controller.abort();
  }, [number, id]);

  const startEdit = () => {
    if (!holder) return;
    setValues({ name1: holder.name1, name2: holder.name2, orgPoint: holder.orgPoint?.number ?? '' });
    setFieldProblems({});
    setDone(undefined);
    setEditing(true);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = cardholderSchema.safeParse({ name1: values.name1, name2: values.name2 });
    const found: Partial<Record<Field, string>> = parsed.success ? {} : toFieldErrors(parsed.error);
    setFieldProblems(found);
    const first = (Object.keys(found) as Field[])[0];
    if (first) {
      document.getElementById(`cardholder-${first}`)?.focus();
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      setHolder(await updateCardholder(number, id, values));
      setEditing(false);
      setDone('saved');
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors) setFieldProblems(error.fieldErrors);
      else setProblem(codeOfError(error));
    } finally {
      setBusy(false);
    }
  };

  const toggle = async () => {
    if (!holder) return;
    setConfirming(false);
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      const next = await setCardholderActive(number, id, !holder.active);
      setHolder(next);
      setDone(next.active ? 'reactivated' : 'deactivated');
    } catch (error) {
      setProblem(codeOfError(error));
    } finally {
      setBusy(false);
    }
  };

  const base = `/organisation/${encodeURIComponent(number)}`;
  const field = (name: Field, label: string) => (
    <div className="cp-field">
      <label className="cp-field__label" htmlFor={`cardholder-${name}`}>
        {label}
      </label>
      <input
        id={`cardholder-${name}`}
        className="cp-field__input"
        value={values[name]}
        onChange={(e) => setValues({ ...values, [name]: e.target.value })}
        aria-invalid={fieldProblems[name] ? true : undefined}
        aria-describedby={fieldProblems[name] ? `cardholder-${name}-error` : undefined}
      />
      <FieldError
        id={`cardholder-${name}-error`}
        message={fieldProblems[name] ? fieldProblemText(fieldProblems[name] as string) : undefined}
      />
    </div>
  );

  return (
    <>
      <h1>{holder ? fullName(holder) : t('app.accounts.cardholder.heading')}</h1>
      <CompanyTabs number={number} />
      <p>
        <Link to={`${base}/cardholders`}>{t('app.accounts.cardholder.back')}</Link>
      </p>
      {holder?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="cardholder-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="cardholder-done" className="app-done">
        {done ? t(`app.accounts.done.${done}`) : ''}
      </p>
      {!holder && !problem ? <p>{t('common.loading')}</p> : null}
      {holder ? (
        <>
          <dl className="app-facts" id="cardholder-facts">
            <dt>{t('app.accounts.field.name1')}</dt>
            <dd>{holder.name1}</dd>
            <dt>{t('app.accounts.field.name2')}</dt>
            <dd>{holder.name2}</dd>
            <dt>{t('app.accounts.field.orgPoint')}</dt>
            <dd>{holder.orgPoint ? `${holder.orgPoint.number} ${holder.orgPoint.name1}` : ''}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="cardholder-status">
              <ActivePill active={holder.active} />
            </dd>
          </dl>
          {holder.canModify && !editing ? (
            <div className="app-actions">
              <button type="button" className="app-button" id="cardholder-edit" onClick={startEdit}>
                {t('app.people.action.edit')}
              </button>
              <button
                type="button"
                id={holder.active ? 'cardholder-deactivate' : 'cardholder-reactivate'}
                className={`app-button${holder.active ? ' app-button--danger' : ''}`}
                disabled={busy}
                onClick={() => setConfirming(true)}
              >
                {t(`app.people.action.${holder.active ? 'deactivate' : 'reactivate'}`)}
              </button>
            </div>
          ) : null}
          {editing ? (
            <form className="app-form" onSubmit={save} noValidate aria-labelledby="cardholder-edit-heading">
              <h2 id="cardholder-edit-heading">{t('app.accounts.cardholder.editHeading')}</h2>
              {field('name1', t('app.accounts.field.name1'))}
              {field('name2', t('app.accounts.field.name2'))}
              {field('orgPoint', t('app.accounts.field.orgPointNumber'))}
              <div className="app-actions">
                <button
                  type="submit"
                  className="app-button app-button--primary"
                  id="cardholder-save"
                  disabled={busy}
                >
                  {t('app.people.form.save')}
                </button>
                <button type="button" className="app-button" onClick={() => setEditing(false)}>
                  {t('common.cancel')}
                </button>
              </div>
            </form>
          ) : null}
          <section aria-labelledby="cardholder-accounts-heading">
            <h2 id="cardholder-accounts-heading">{t('app.accounts.cardholder.accounts')}</h2>
            {holder.accounts.length === 0 ? (
              <p>{t('app.accounts.accounts.none')}</p>
            ) : (
              <TableWrap captionId="cardholder-accounts-heading">
                <table className="app-table" id="cardholder-accounts">
                  <thead>
                    <tr>
                      <th scope="col">{t('app.accounts.field.number')}</th>
                      <th scope="col">{t('app.accounts.field.group')}</th>
                      <th scope="col">{t('app.people.field.status')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {holder.accounts.map((a) => (
                      <tr key={a.id}>
                        <th scope="row">
                          <Link to={`${base}/accounts/${a.id}`}>{a.maskedNumber}</Link>
                        </th>
                        <td>{a.group?.name ?? ''}</td>
                        <td>
                          <AccountStatusPill status={a.status} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={
          holder
            ? t(
                `app.accounts.cardholder.confirm.${holder.active ? 'deactivate' : 'reactivate'}`,
                fullName(holder),
              )
            : ''
        }
        body={t('app.accounts.cardholder.confirm.body')}
        confirmLabel={holder ? t(`app.people.action.${holder.active ? 'deactivate' : 'reactivate'}`) : ''}
        onConfirm={() => void toggle()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
