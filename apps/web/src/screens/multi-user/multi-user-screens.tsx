/** The multi-user screens after sign-in (loaded on demand by multi-user-gate.tsx). */
import type { LinkMember } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { type ReactNode, useEffect, useRef } from 'react';
import { reloadApp } from '../../api/session.ts';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useFocusOnProblem } from '../../frame/use-focus-on-problem.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type T, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { chooseFormSchema, useChooseUser, useConfirmLink } from './multi-user-queries.ts';

function Page({ title, children }: { title: string; children: ReactNode }) {
  const { t, cobrand, logo } = useApp();
  usePageTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <>
      <header className="app-header">
        {logo ? <img className="app-logo" src={logo} alt={cobrand?.appName ?? ''} /> : null}
        <span className="app-name">{cobrand?.appName || t('common.defaultAppName')}</span>
      </header>
      <main id="main" className="app-main multi-user-page">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </main>
      <footer className="app-footer">{cobrand?.copyrightMessage ?? ''}</footer>
    </>
  );
}

function memberLabel(t: T, m: LinkMember): string {
  const where = m.companyName ? ` — ${m.companyName}` : '';
  return `${m.userId} (${t(`app.userType.${m.userType}`)})${where}`;
}

/** The signed-in user's own link, to confirm or decline (each member confirms for itself). */
export function ConfirmLinkScreen({ members }: { members: LinkMember[] }) {
  const { t, user, problemText } = useApp();
  const confirm = useConfirmLink();
  const busy = confirm.isPending || confirm.isSuccess;
  const problem = confirm.isError ? problemOf(confirm.error) : undefined;
  const alert = useFocusOnProblem(problem);
  const answer = (accept: boolean) =>
    confirm.mutate({ accept, userIds: members.map((m) => m.userId) }, { onSuccess: () => reloadApp() });
  return (
    <Page title={t('app.multiUser.confirm.heading')}>
      <p>{t('app.multiUser.confirm.intro', user.userId)}</p>
      <ul id="multi-user-linked">
        {members.map((m) => (
          <li key={m.userId}>{memberLabel(t, m)}</li>
        ))}
      </ul>
      <p>{t('app.multiUser.confirm.explain')}</p>
      <ErrorSummary id="multi-user-error" ref={alert} message={problem ? problemText(problem) : undefined} />
      <div className="form-actions">
        <button id="multi-user-accept" type="button" disabled={busy} onClick={() => answer(true)}>
          {t('app.multiUser.confirm.accept')}
        </button>
        <button
          id="multi-user-decline"
          type="button"
          className="secondary"
          disabled={busy}
          onClick={() => answer(false)}
        >
          {t('app.multiUser.confirm.decline')}
        </button>
      </div>
    </Page>
  );
}

/** The linked user IDs to work as in this session; the choice is final until logout. */
export function ChooseUserScreen({ choices }: { choices: LinkMember[] }) {
  const { t } = useApp();
  const choose = useChooseUser();
  const form = useAppForm({ schema: chooseFormSchema, defaultValues: { userId: choices[0]?.userId ?? '' } });
  return (
    <Page title={t('app.multiUser.choose.heading')}>
      <AppForm
        form={form}
        errorId="multi-user-error"
        onSubmit={async ({ userId }) => {
          const { url } = await choose.mutateAsync(userId);
          reloadApp(url);
        }}
      >
        <fieldset>
          <legend>{t('app.multiUser.choose.legend')}</legend>
          {choices.map((m, i) => (
            <div className="radio-row" key={m.userId}>
              <input
                type="radio"
                id={`multi-user-choice-${i}`}
                value={m.userId}
                {...form.register('userId')}
              />
              <label htmlFor={`multi-user-choice-${i}`}>{memberLabel(t, m)}</label>
            </div>
          ))}
        </fieldset>
        <p className="field-hint">{t('app.multiUser.choose.final')}</p>
        <div className="form-actions">
          <SubmitButton form={form} id="multi-user-continue">
            {t('app.multiUser.choose.continue')}
          </SubmitButton>
        </div>
      </AppForm>
    </Page>
  );
}
