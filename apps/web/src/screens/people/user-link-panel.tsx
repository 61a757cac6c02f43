import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable } from '../../frame/data-table.tsx';
import { EmptyState } from '../../frame/empty-state.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { SERVER_ROOT, useAppForm } from '../../frame/form/use-app-form.ts';
import { useFocusOnProblem } from '../../frame/use-focus-on-problem.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { linkMemberColumns } from './people-columns.tsx';
import { useChangeLink, userLinkQuery } from './people-queries.ts';

/** The link form: the other user ID (the server checks the rest: the seed's linking rules). */
const linkFormSchema = z.object({ other: z.string().trim().min(1, { error: 'userId.required' }) });

/**
 * The user's multi-user link on the user view (issue 7): the linked user IDs with each one's
 * confirmation, linking another user ID and unlinking (after confirmation) where the server allows.
 * Refusals (the seed's linking rules) show in the panel's alert region.
 */
export function UserLinkPanel({ userId }: { userId: string }) {
  const { t, problemText } = useApp();
  const query = useQuery(userLinkQuery(userId));
  const link = query.data;
  const change = useChangeLink(userId);
  const [done, setDone] = useState<'linked' | 'unlinked' | undefined>();
  const [confirming, setConfirming] = useState(false);
  const form = useAppForm({ schema: linkFormSchema, defaultValues: { other: '' } });
  const columns = useMemo(() => linkMemberColumns({ t }), [t]);
  // Unlinking's refusal (the form shows its own); it takes focus, a failed read does not.
  const unlinkProblem =
    change.isError && change.variables && 'unlink' in change.variables ? problemOf(change.error) : undefined;
  const problem = query.isError ? problemOf(query.error) : unlinkProblem;
  const alert = useFocusOnProblem(link?.mayLink ? undefined : unlinkProblem);
  const members = link?.members ?? [];

  const unlink = () => {
    setConfirming(false);
    setDone(undefined);
    change.mutate(
      { unlink: true },
      {
        onSuccess: () => setDone('unlinked'),
        onError: (error) => {
          // With the link form shown, its summary is the panel's alert.
          if (link?.mayLink)
            form.setError(`root.${SERVER_ROOT}`, { type: 'server', message: problemOf(error) });
        },
      },
    );
  };

  return (
    <section className="app-panel" id="user-link" aria-labelledby="user-link-heading">
      <h2 id="user-link-heading">{t('app.people.link.heading')}</h2>
      {link?.mayLink ? null : (
        <ErrorSummary id="user-link-error" ref={alert} message={problem ? problemText(problem) : undefined} />
      )}
      <p role="status" id="user-link-done" className="app-done">
        {done ? t(`app.people.link.done.${done}`) : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {link && members.length === 0 ? (
        <EmptyState id="user-link-none">{t('app.people.link.none')}</EmptyState>
      ) : null}
      {members.length > 0 ? (
        <DataTable
          id="user-link-members"
          caption={t('app.people.link.members', link?.userId ?? userId)}
          columns={columns}
          data={members}
          getRowId={(m) => m.userId}
        />
      ) : null}
      {link?.mayLink ? (
        <AppForm
          form={form}
          id="user-link-form"
          errorId="user-link-error"
          inline
          onSubmit={async ({ other }) => {
            setDone(undefined);
            await change.mutateAsync({ link: [link.userId, other] });
            form.reset({ other: '' });
            setDone('linked');
          }}
        >
          <TextField
            control={form.control}
            name="other"
            id="user-link-other"
            label={t('app.people.link.other')}
            autoComplete="off"
            spellCheck={false}
          />
          <SubmitButton form={form} id="user-link-submit">
            {t('app.people.link.link')}
          </SubmitButton>
        </AppForm>
      ) : null}
      {link?.mayUnlink ? (
        <div className="app-actions">
          <button
            type="button"
            className="app-button app-button--danger"
            id="user-unlink"
            disabled={change.isPending}
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
          title={t('app.people.link.confirmUnlink', link.userId)}
          body={t('app.people.link.confirmUnlinkBody')}
          confirmLabel={t('app.people.link.unlink')}
          onConfirm={unlink}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
