import {
  isOfferedProgramOption,
  type ProgramOptionKey,
  type ProgramOptionState,
  type ProgramOptionsView,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { getProgramOptions, saveProgramOptions } from '../../api/issuers.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';

/** A company's own setting on screen: on, off, or none (as its issuer). */
type CompanyChoice = 'inherit' | 'on' | 'off';

const choiceOf = (value: boolean | null): CompanyChoice =>
  value === null ? 'inherit' : value ? 'on' : 'off';
const settingOf = (choice: CompanyChoice): boolean | null => (choice === 'inherit' ? null : choice === 'on');

/**
 * Program options of an issuer (`/issuers/:number/program-options`: a switch per option) or of a company
 * (`/organisation/:number/program-options`: as issuer / on / off, "on" only where the issuer has it on),
 * each row showing both levels and the effective value. Saving asks for confirmation and sends only the
 * changed options. Only the options whose feature exists are offered (OFFERED_PROGRAM_OPTION_KEYS).
 */
export function ProgramOptionsScreen({ level }: { level: 'issuer' | 'company' }) {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  const [view, setView] = useState<ProgramOptionsView | undefined>();
  const [draft, setDraft] = useState<Partial<Record<ProgramOptionKey, boolean | null>>>({});
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const heading = t(level === 'issuer' ? 'app.options.issuerHeading' : 'app.options.companyHeading', number);
  usePageTitle(heading);

  useEffect(() => {
    const controller = new AbortController();
    setView(undefined);
    setDraft({});
    setProblem(undefined);
    getProgramOptions(level, number, controller.signal).then(setView, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
    return () => controller.abort();
  }, [level, number]);

  const own = (option: ProgramOptionState) => (level === 'issuer' ? option.issuer === true : option.company);
  const current = (option: ProgramOptionState) =>
    option.key in draft ? (draft[option.key] as boolean | null) : own(option);
  const changes = view
    ? Object.fromEntries(
        view.options
          .filter((o) => o.key in draft && draft[o.key] !== own(o))
          .map((o) => [o.key, draft[o.key]]),
      )
    : {};
  const changed = Object.keys(changes).length > 0;

  const save = async () => {
    setConfirming(false);
    setBusy(true);
    setProblem(undefined);
    setDone(false);
    try {
      setView(await saveProgramOptions(level, number, changes));
      setDraft({});
      setDone(true);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.code : 'error.generic');
      window.setTimeout(() => document.getElementById('options-error')?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) setConfirming(true);
  };

  const onOff = (value: boolean | null) => (value ? t('app.org.on') : t('app.org.off'));
  const back =
    level === 'issuer'
      ? `/issuers/${encodeURIComponent(number)}`
      : `/organisation/${encodeURIComponent(number)}`;

  return (
    <>
      <h1>{heading}</h1>
      <p>
        <Link to={back}>
          {level === 'issuer' ? t('app.issuers.view.heading', number) : t('app.org.view.heading', number)}
        </Link>
      </p>
      <ErrorSummary id="options-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="options-done" className="app-done">
        {done ? t('app.options.done') : ''}
      </p>
      {!view && !problem ? <p>{t('common.loading')}</p> : null}
      {view ? (
        <form className="app-form" onSubmit={submit} noValidate id="options-form">
          {view.canModify ? null : <p id="options-read-only">{t('app.options.readOnly')}</p>}
          <TableWrap captionId="options-table-caption">
            <table className="app-table" id="options-table">
              <caption id="options-table-caption">
                {view.company ? `${view.company.name1} — ${view.issuer.name1}` : view.issuer.name1}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.options.option')}</th>
                  <th scope="col">{t('app.options.issuer')}</th>
                  {level === 'company' ? <th scope="col">{t('app.options.company')}</th> : null}
                  <th scope="col">{t('app.options.effective')}</th>
                </tr>
              </thead>
              <tbody>
                {view.options
                  .filter((option) => isOfferedProgramOption(option.key))
                  .map((option) => {
                    const label = t(`app.programOption.${option.key}`);
                    const id = `option-${option.key}`;
                    return (
                      <tr key={option.key}>
                        <th scope="row" id={`${id}-label`}>
                          {label}
                        </th>
                        <td>
                          {level === 'issuer' ? (
                            <label className="app-check">
                              <input
                                type="checkbox"
                                role="switch"
                                aria-checked={current(option) === true}
                                id={id}
                                aria-labelledby={`${id}-label`}
                                checked={current(option) === true}
                                disabled={!view.canModify || busy}
                                onChange={(e) => setDraft({ ...draft, [option.key]: e.target.checked })}
                              />{' '}
                              {onOff(current(option))}
                            </label>
                          ) : (
                            onOff(option.issuer)
                          )}
                        </td>
                        {level === 'company' ? (
                          <td>
                            <select
                              id={id}
                              className="cp-field__input"
                              aria-labelledby={`${id}-label`}
                              aria-describedby={option.issuer ? undefined : `${id}-hint`}
                              value={choiceOf(current(option))}
                              disabled={!view.canModify || busy}
                              onChange={(e) =>
                                setDraft({
                                  ...draft,
                                  [option.key]: settingOf(e.target.value as CompanyChoice),
                                })
                              }
                            >
                              <option value="inherit">{t('app.options.inherit')}</option>
                              <option value="on" disabled={!option.issuer}>
                                {t('app.org.on')}
                              </option>
                              <option value="off">{t('app.org.off')}</option>
                            </select>
                            {option.issuer ? null : (
                              <span className="app-hint" id={`${id}-hint`}>
                                {t('app.options.issuerOff')}
                              </span>
                            )}
                          </td>
                        ) : null}
                        <td id={`${id}-effective`}>{onOff(option.effective)}</td>
                      </tr>
                    );
                  })}
              </tbody>
            </table>
          </TableWrap>
          {view.canModify ? (
            <div className="app-actions">
              <button
                type="submit"
                className="app-button app-button--primary"
                id="options-save"
                disabled={busy || !changed}
              >
                {t('app.options.save')}
              </button>
            </div>
          ) : null}
        </form>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={t('app.options.confirm')}
        body={t('app.options.confirmBody')}
        confirmLabel={t('app.options.save')}
        onConfirm={() => void save()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
