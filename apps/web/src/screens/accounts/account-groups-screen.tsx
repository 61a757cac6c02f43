import {
  type AccountGroupList,
  type AccountGroupSummary,
  accountGroupSchema,
  toFieldErrors,
} from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  createAccountGroup,
  listAccountGroups,
  renameAccountGroup,
  setAccountGroupActive,
} from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { codeOfError } from './shared.tsx';

/** The name's problem by the shared rule (`accountGroup.name.*`), or undefined. */
export function checkGroupName(name: string): string | undefined {
  const parsed = accountGroupSchema.safeParse({ name });
  return parsed.success ? undefined : toFieldErrors(parsed.error).name;
}

/** One name form: create (no group) or rename (a group). Server field errors land on the field. */
function GroupNameForm({
  idPrefix,
  initial,
  label,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  initial: string;
  label: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t, fieldProblemText, problemText } = useApp();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | undefined>();
  const [formProblem, setFormProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkGroupName(name);
    setProblem(found);
    setFormProblem(undefined);
    if (found) {
      document.getElementById(`${idPrefix}-name`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(name.trim());
      setName(initial);
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors?.name) {
        setProblem(error.fieldErrors.name);
        document.getElementById(`${idPrefix}-name`)?.focus();
      } else setFormProblem(codeOfError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="app-form app-form--inline" onSubmit={submit} noValidate>
      <ErrorSummary id={`${idPrefix}-error`} message={formProblem ? problemText(formProblem) : undefined} />
      <div className="cp-field">
        <label className="cp-field__label" htmlFor={`${idPrefix}-name`}>
          {label}
        </label>
        <input
          id={`${idPrefix}-name`}
          className="cp-field__input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${idPrefix}-name-error` : undefined}
        />
        <FieldError id={`${idPrefix}-name-error`} message={problem ? fieldProblemText(problem) : undefined} />
      </div>
      <button
        type="submit"
        className="app-button app-button--primary"
        id={`${idPrefix}-submit`}
        disabled={busy}
      >
        {submitLabel}
      </button>
      {onCancel ? (
        <button type="button" className="app-button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      ) : null}
    </form>
  );
}

/** A company's account groups: list with open accounts, create, rename, deactivate / reactivate. */
export function AccountGroupsScreen() {
  const { t, problemText, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounts.groups.heading', number));
  const [list, setList] = useState<AccountGroupList | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [renaming, setRenaming] = useState<number | undefined>();
  const [confirming, setConfirming] = useState<AccountGroupSummary | undefined>();
  const count = new Intl.NumberFormat(languageTag);

  const load = useCallback(
    (signal?: AbortSignal) =>
      listAccountGroups(number, signal).then(setList, (error: unknown) => {
        if (!signal?.aborted) setProblem(codeOfError(error));
      }),
    [number],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const after = async (message: string) => {
    setDone(message);
    setProblem(undefined);
    await load();
  };

  const toggle = async (group: AccountGroupSummary) => {
    setConfirming(undefined);
    setDone(undefined);
    try {
      await setAccountGroupActive(number, group.id, !group.active);
      await after(group.active ? 'groupDeactivated' : 'groupReactivated');
    } catch (error) {
      setProblem(codeOfError(error));
    }
  };

  return (
    <>
      <h1>{t('app.accounts.groups.heading', number)}</h1>
      <CompanyTabs number={number} />
      {list?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="groups-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="groups-done" className="app-done">
        {done ? t(`app.accounts.done.${done}`) : ''}
      </p>
      {!list && !problem ? <p>{t('common.loading')}</p> : null}
      {list?.canModify ? (
        <section aria-labelledby="group-create-heading">
          <h2 id="group-create-heading">{t('app.accounts.groups.create')}</h2>
          <GroupNameForm
            idPrefix="group-create"
            initial=""
            label={t('app.accounts.field.groupName')}
            submitLabel={t('app.accounts.groups.createSubmit')}
            onSubmit={async (name) => {
              await createAccountGroup(number, name);
              await after('groupCreated');
            }}
          />
        </section>
      ) : null}
      {list && list.rows.length === 0 ? <p>{t('app.accounts.groups.none')}</p> : null}
      {list && list.rows.length > 0 ? (
        <TableWrap captionId="group-results-caption">
          <table className="app-table" id="group-results">
            <caption id="group-results-caption">{t('app.accounts.groups.results')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('app.accounts.field.groupName')}</th>
                <th scope="col">{t('app.accounts.field.openAccounts')}</th>
                <th scope="col">{t('app.people.field.status')}</th>
                {list.canModify ? <th scope="col">{t('app.accounts.groups.actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.rows.map((group) => (
                <tr key={group.id}>
                  <th scope="row">
                    {renaming === group.id ? (
                      <GroupNameForm
                        idPrefix={`group-rename-${group.id}`}
                        initial={group.name}
                        label={t('app.accounts.groups.renameLabel', group.name)}
                        submitLabel={t('app.people.form.save')}
                        onSubmit={async (name) => {
                          await renameAccountGroup(number, group.id, name);
                          setRenaming(undefined);
                          await after('groupRenamed');
                        }}
                        onCancel={() => setRenaming(undefined)}
                      />
                    ) : (
                      <Link to={`/organisation/${encodeURIComponent(number)}/accounts?group=${group.id}`}>
                        {group.name}
                      </Link>
                    )}
                  </th>
                  <td>{count.format(group.activeAccounts)}</td>
                  <td>
                    <ActivePill active={group.active} />
                  </td>
                  {list.canModify ? (
                    <td>
                      <div className="app-actions">
                        <button
                          type="button"
                          className="app-button"
                          aria-label={t('app.accounts.groups.renameLabel', group.name)}
                          onClick={() => setRenaming(group.id)}
                        >
                          {t('app.accounts.groups.rename')}
                        </button>
                        <button
                          type="button"
                          className={`app-button${group.active ? ' app-button--danger' : ''}`}
                          aria-label={t(
                            `app.accounts.groups.${group.active ? 'deactivateLabel' : 'reactivateLabel'}`,
                            group.name,
                          )}
                          onClick={() => setConfirming(group)}
                        >
                          {t(`app.people.action.${group.active ? 'deactivate' : 'reactivate'}`)}
                        </button>
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={
          confirming
            ? t(
                `app.accounts.groups.${confirming.active ? 'deactivateLabel' : 'reactivateLabel'}`,
                confirming.name,
              )
            : ''
        }
        body={t('app.accounts.groups.confirmBody')}
        confirmLabel={
          confirming ? t(`app.people.action.${confirming.active ? 'deactivate' : 'reactivate'}`) : ''
        }
        onConfirm={() => {
          if (confirming) void toggle(confirming);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
