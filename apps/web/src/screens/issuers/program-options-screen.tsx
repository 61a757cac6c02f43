import { isOfferedProgramOption, type ProgramOptionKey, type ProgramOptionState } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable } from '../../frame/data-table.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { programOptionsQuery, useSaveProgramOptions } from './issuers-queries.ts';
import { type OptionsDraft, OptionsDraftContext, optionsColumns } from './options-columns.tsx';

/**
 * Program options of an issuer (`/issuers/:number/program-options`: a switch per option) or of a company
 * (`/organisation/:number/program-options`: as issuer / on / off, "on" only where the issuer has it on),
 * each row showing both levels and the effective value. Saving asks for confirmation and sends only the
 * changed options. Only the options whose feature exists are offered (OFFERED_PROGRAM_OPTION_KEYS).
 */
export function ProgramOptionsScreen({ level }: { level: 'issuer' | 'company' }) {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  const read = useQuery(programOptionsQuery(level, number));
  const view = read.data;
  const saving = useSaveProgramOptions(level, number);
  // The choices not saved yet, per screen (level and number): another company starts afresh.
  const [drafts, setDrafts] = useState<{
    of: string;
    draft: Partial<Record<ProgramOptionKey, boolean | null>>;
  }>({
    of: '',
    draft: {},
  });
  const screenKey = `${level}/${number}`;
  const draft = drafts.of === screenKey ? drafts.draft : {};
  const setDraft = (next: Partial<Record<ProgramOptionKey, boolean | null>>) =>
    setDrafts({ of: screenKey, draft: next });
  const [saveProblem, setSaveProblem] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const busy = saving.isPending;
  const problem = saveProblem ?? (read.isError ? problemOf(read.error) : undefined);
  const heading = t(level === 'issuer' ? 'app.options.issuerHeading' : 'app.options.companyHeading', number);
  usePageTitle(heading);

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
    setSaveProblem(undefined);
    setDone(false);
    try {
      await saving.mutateAsync(changes);
      setDraft({});
      setDone(true);
    } catch (error) {
      setSaveProblem(problemOf(error));
      window.setTimeout(() => document.getElementById('options-error')?.focus(), 0);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) setConfirming(true);
  };

  const columns = useMemo(() => optionsColumns({ t, level }), [t, level]);
  const offered = useMemo(() => view?.options.filter((option) => isOfferedProgramOption(option.key)), [view]);
  const cells: OptionsDraft = {
    current,
    choose: (option, value) => setDraft({ ...draft, [option.key]: value }),
    disabled: !view?.canModify || busy,
  };
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
          <OptionsDraftContext value={cells}>
            <DataTable
              id="options-table"
              caption={view.company ? `${view.company.name1} — ${view.issuer.name1}` : view.issuer.name1}
              columns={columns}
              data={offered}
              getRowId={(option) => option.key}
            />
          </OptionsDraftContext>
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
