import type { UserLink } from '@cardportal/domain';
import { ErrorSummary, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { getUserLink, linkUsers, unlinkUser } from '../../api/multi-user.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { StatusPill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { useApp } from '../../lib/app-context.tsx';

/**
 * The user's multi-user link on the user view (issue 7): the linked user IDs with each one's
 * confirmation, linking another user ID and unlinking (after confirmation) where the server allows.
 * Refusals (the seed's linking rules) show in the panel's alert region.
 */
export function UserLinkPanel({ userId }: { userId: string }) {
  const { t, problemText, fieldProblemText } = useApp();
  const [link, setLink] = useState<UserLink | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [other, setOther] = useState('');
  const [otherProblem, setOtherProblem] = useState<string | undefined>();
  const [done, setDone] = useState<'linked' | 'unlinked' | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setLink(undefined);
    setProblem(undefined);
    setDone(undefined);
    getUserLink(userId, controller.signal).then(setLink, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
    return () => controller.abort();
  }, [userId]);

  const run = async (action: () => Promise<UserLink>, result: 'linked' | 'unlinked') => {
    setBusy(true);
    setProblem(undefined);
    setOtherProblem(undefined);
    setDone(undefined);
    try {
      setLink(await action());
      setDone(result);
      setOther('');
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'error.generic';
      setProblem(code);
      window.setTimeout(() => document.getElementById('user-link-error')?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = other.trim();
    if (!id) {
      setOtherProblem('app.people.link.otherRequired');
      window.setTimeout(() => document.getElementById('user-link-other')?.focus(), 0);
      return;
    }
    void run(() => linkUsers([link?.userId ?? userId, id]), 'linked');
  };

  const members = link?.members ?? [];

  return (
    <section className="app-panel" id="user-link" aria-labelledby="user-link-heading">
      <h2 id="user-link-heading">{t('app.people.link.heading')}</h2>
      <ErrorSummary id="user-link-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="user-link-done" className="app-done">
        {done ? t(`app.people.link.done.${done}`) : ''}
      </p>
      {!link && !problem ? <p>{t('common.loading')}</p> : null}
      {link && members.length === 0 ? <p id="user-link-none">{t('app.people.link.none')}</p> : null}
      {members.length > 0 ? (
        <TableWrap captionId="user-link-members-caption">
          <table className="app-table" id="user-link-members">
            <caption id="user-link-members-caption">
              {t('app.people.link.members', link?.userId ?? userId)}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('app.people.field.userId')}</th>
                <th scope="col">{t('app.people.field.name')}</th>
                <th scope="col">{t('app.people.field.company')}</th>
                <th scope="col">{t('app.people.field.status')}</th>
                <th scope="col">{t('app.people.link.confirmation')}</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.userId}>
                  <th scope="row">{m.userId}</th>
                  <td>{[m.firstName, m.lastName].filter(Boolean).join(' ')}</td>
                  <td>{m.companyName ? `${m.companyName} (${m.companyNumber})` : ''}</td>
                  <td>
                    <StatusPill status={m.status} />
                  </td>
                  <td>{t(m.confirmed ? 'app.people.link.confirmed' : 'app.people.link.awaiting')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {link?.mayLink ? (
        <form className="app-form app-form--inline" onSubmit={submit} noValidate id="user-link-form">
          <TextField
            id="user-link-other"
            label={t('app.people.link.other')}
            value={other}
            onValueChange={setOther}
            error={
              otherProblem ? t(otherProblem) || fieldProblemText('multiUser.userIds.invalid') : undefined
            }
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit" className="app-button" id="user-link-submit" disabled={busy}>
            {t('app.people.link.link')}
          </button>
        </form>
      ) : null}
      {link?.mayUnlink ? (
        <div className="app-actions">
          <button
            type="button"
            className="app-button app-button--danger"
            id="user-unlink"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            {t('app.people.link.unlink')}
          </button>
        </div>
      ) : null}
      {link?.mayUnlink ? (
        <ConfirmDialog
          idPrefix="user-unlink-confirm"
          open={confirming}
          title={t('app.people.link.confirmUnlink', link?.userId ?? userId)}
          body={t('app.people.link.confirmUnlinkBody')}
          confirmLabel={t('app.people.link.unlink')}
          onConfirm={() => {
            setConfirming(false);
            void run(() => unlinkUser(userId), 'unlinked');
          }}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
