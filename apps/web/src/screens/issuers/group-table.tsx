import { companyGroupSchema, issuerGroupSchema, toFieldErrors } from '@cardportal/domain';
import { ErrorSummary, TextField } from '@cardportal/ui';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { useApp } from '../../lib/app-context.tsx';

export interface GroupRow {
  id: number;
  name: string;
  active: boolean;
  /** Active members (issuers of an issuer group, companies of a company group). */
  activeCount: number;
}

/**
 * A list of groups (issuer groups or one issuer's company groups) with add, rename, deactivate and
 * reactivate for those who may maintain them. Names follow the domain schema the server runs too; a
 * refusal (duplicate name, active members) is shown in the error summary.
 */
export function GroupTable({
  kind,
  rows,
  canMaintain,
  onCreate,
  onRename,
  onSetActive,
}: {
  kind: 'issuerGroup' | 'companyGroup';
  rows: GroupRow[];
  canMaintain: boolean;
  onCreate: (name: string) => Promise<void>;
  onRename: (id: number, name: string) => Promise<void>;
  onSetActive: (id: number, active: boolean) => Promise<void>;
}) {
  const { t, problemText, fieldProblemText } = useApp();
  const labels = kind === 'issuerGroup' ? 'app.issuerGroups' : 'app.companyGroups';
  const schema = kind === 'issuerGroup' ? issuerGroupSchema : companyGroupSchema;
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | undefined>();
  const [renaming, setRenaming] = useState<{ id: number; name: string; draft: string } | undefined>();
  const [renameProblem, setRenameProblem] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<GroupRow | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const check = (value: string) => {
    const parsed = schema.safeParse({ name: value });
    return parsed.success ? undefined : toFieldErrors(parsed.error).name;
  };

  /** Runs a change; a field refusal goes to `onField`, anything else to the summary. */
  const run = async (work: () => Promise<void>, onField?: (key: string) => void) => {
    setBusy(true);
    setProblem(undefined);
    setDone(false);
    try {
      await work();
      setDone(true);
      return true;
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors?.name : undefined;
      if (field && onField) onField(field);
      else setProblem(error instanceof ApiError ? error.code : 'error.generic');
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const found = check(name);
    setNameProblem(found);
    if (found) {
      document.getElementById(`${kind}-name`)?.focus();
      return;
    }
    if (await run(() => onCreate(name.trim()), setNameProblem)) setName('');
  };

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!renaming) return;
    const found = check(renaming.draft);
    setRenameProblem(found);
    if (found) return;
    if (await run(() => onRename(renaming.id, renaming.draft.trim()), setRenameProblem))
      setRenaming(undefined);
  };

  const action = confirming?.active ? 'deactivate' : 'reactivate';

  return (
    <>
      <ErrorSummary id={`${kind}-error`} message={problem ? problemText(problem) : undefined} />
      <p role="status" className="app-done" id={`${kind}-done`}>
        {done ? t('app.groups.done') : ''}
      </p>
      {canMaintain ? (
        <form className="app-form app-form--inline" onSubmit={add} noValidate id={`${kind}-add`}>
          <TextField
            id={`${kind}-name`}
            label={t(`${labels}.name`)}
            value={name}
            onValueChange={setName}
            error={nameProblem ? fieldProblemText(nameProblem) : undefined}
            autoComplete="off"
          />
          <button
            type="submit"
            className="app-button app-button--primary"
            disabled={busy}
            id={`${kind}-create`}
          >
            {t('app.groups.add')}
          </button>
        </form>
      ) : null}
      {rows.length === 0 ? <p>{t('app.groups.none')}</p> : null}
      {rows.length > 0 ? (
        <TableWrap captionId={`${kind}-table-caption`}>
          <table className="app-table" id={`${kind}-table`}>
            <caption id={`${kind}-table-caption`}>{t(`${labels}.heading`)}</caption>
            <thead>
              <tr>
                <th scope="col">{t(`${labels}.name`)}</th>
                <th scope="col">{t(`${labels}.count`)}</th>
                <th scope="col">{t('app.people.field.status')}</th>
                {canMaintain ? <th scope="col">{t('app.groups.actions')}</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    {renaming?.id === row.id ? (
                      <form className="app-form app-form--inline" onSubmit={rename} noValidate>
                        <TextField
                          id={`${kind}-rename-${row.id}`}
                          label={t('app.groups.renameLabel', row.name)}
                          value={renaming.draft}
                          onValueChange={(draft) => setRenaming({ ...renaming, draft })}
                          error={renameProblem ? fieldProblemText(renameProblem) : undefined}
                          autoComplete="off"
                        />
                        <button type="submit" className="app-button app-button--primary" disabled={busy}>
                          {t('app.people.form.save')}
                        </button>
                        <button type="button" className="app-button" onClick={() => setRenaming(undefined)}>
                          {t('common.cancel')}
                        </button>
                      </form>
                    ) : (
                      row.name
                    )}
                  </th>
                  <td>{row.activeCount}</td>
                  <td>
                    <ActivePill active={row.active} />
                  </td>
                  {canMaintain ? (
                    <td>
                      <div className="app-actions">
                        <button
                          type="button"
                          className="app-button"
                          disabled={busy}
                          aria-label={`${t('app.groups.rename')}: ${row.name}`}
                          onClick={() => {
                            setRenameProblem(undefined);
                            setRenaming({ id: row.id, name: row.name, draft: row.name });
                          }}
                        >
                          {t('app.groups.rename')}
                        </button>
                        <button
                          type="button"
                          className={`app-button${row.active ? ' app-button--danger' : ''}`}
                          disabled={busy}
                          aria-label={`${t(`app.people.action.${row.active ? 'deactivate' : 'reactivate'}`)}: ${row.name}`}
                          onClick={() => setConfirming(row)}
                        >
                          {t(`app.people.action.${row.active ? 'deactivate' : 'reactivate'}`)}
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
        title={confirming ? t(`app.groups.confirm.${action}`, confirming.name) : ''}
        body={confirming ? t(`app.groups.confirm.${action}Body`) : ''}
        confirmLabel={t(`app.people.action.${action}`)}
        onConfirm={() => {
          const row = confirming;
          setConfirming(undefined);
          if (row) void run(() => onSetActive(row.id, !row.active));
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
