import type { LinkMember } from '@cardportal/domain';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { chooseUser, confirmLink, reloadApp } from '../../api/session.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';

/**
 * Multi-user after sign-in (seed 001 §2 "multi-user login selection and confirmation"): a user whose
 * link awaits its confirmation confirms or declines it first; a confirmed member of a link chooses the
 * user ID to work as. Anyone else goes straight to the application.
 */
export function MultiUserGate({ children }: { children: ReactNode }) {
  const { user } = useApp();
  if (user.multiUser.confirm) return <ConfirmLinkScreen members={user.multiUser.confirm} />;
  if (user.multiUser.choices.length > 1) return <ChooseUserScreen choices={user.multiUser.choices} />;
  return <>{children}</>;
}

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

function memberLabel(t: (key: string, ...args: string[]) => string, m: LinkMember): string {
  const where = m.companyName ? ` — ${m.companyName}` : '';
  return `${m.userId} (${t(`app.userType.${m.userType}`)})${where}`;
}

function useAction() {
  const { problemText } = useApp();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const alertRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (problem) alertRef.current?.focus();
  }, [problem]);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem('');
    try {
      await work();
    } catch (error) {
      setProblem(problemText(error instanceof ApiError ? error.code : 'generic'));
      setBusy(false);
    }
  };
  const alert = problem ? (
    <p id="multi-user-error" className="form-error" role="alert" tabIndex={-1} ref={alertRef}>
      {problem}
    </p>
  ) : null;
  return { busy, run, alert };
}

/** The signed-in user's own link, to confirm or decline (each member confirms for itself). */
export function ConfirmLinkScreen({ members }: { members: LinkMember[] }) {
  const { t, user } = useApp();
  const { busy, run, alert } = useAction();
  const answer = (accept: boolean) =>
    run(async () => {
      await confirmLink(
        accept,
        members.map((m) => m.userId),
      );
      reloadApp();
    });
  return (
    <Page title={t('app.multiUser.confirm.heading')}>
      <p>{t('app.multiUser.confirm.intro', user.userId)}</p>
      <ul id="multi-user-linked">
        {members.map((m) => (
          <li key={m.userId}>{memberLabel(t, m)}</li>
        ))}
      </ul>
      <p>{t('app.multiUser.confirm.explain')}</p>
      {alert}
      <div className="form-actions">
        <button id="multi-user-accept" type="button" disabled={busy} onClick={() => void answer(true)}>
          {t('app.multiUser.confirm.accept')}
        </button>
        <button
          id="multi-user-decline"
          type="button"
          className="secondary"
          disabled={busy}
          onClick={() => void answer(false)}
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
  const [selected, setSelected] = useState(choices[0]?.userId ?? '');
  const { busy, run, alert } = useAction();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { url } = await chooseUser(selected);
      reloadApp(url);
    });
  };
  return (
    <Page title={t('app.multiUser.choose.heading')}>
      <form onSubmit={submit} noValidate>
        <fieldset>
          <legend>{t('app.multiUser.choose.legend')}</legend>
          {choices.map((m, i) => (
            <div className="radio-row" key={m.userId}>
              <input
                type="radio"
                id={`multi-user-choice-${i}`}
                name="multi-user-choice"
                value={m.userId}
                checked={selected === m.userId}
                onChange={() => setSelected(m.userId)}
              />
              <label htmlFor={`multi-user-choice-${i}`}>{memberLabel(t, m)}</label>
            </div>
          ))}
        </fieldset>
        <p className="field-hint">{t('app.multiUser.choose.final')}</p>
        {alert}
        <div className="form-actions">
          <button id="multi-user-continue" type="submit" disabled={busy || !selected}>
            {t('app.multiUser.choose.continue')}
          </button>
        </div>
      </form>
    </Page>
  );
}
