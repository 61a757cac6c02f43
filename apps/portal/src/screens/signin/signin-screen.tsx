import { cobrandText, LIMITS, SPECIAL_SIGNIN_LABEL_ABBREVIATION } from '@cardportal/domain';
import { ErrorSummary, PasswordField, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { fssoRedirectTarget } from '../../app/bootstrap.ts';
import { type Portal, screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { browser } from '../../lib/browser.ts';
import { localRemove, SET_PIN_KEY } from '../../lib/storage.ts';
import { isAllowedExternalTarget, relFor } from '../../lib/urls.ts';
import { currentLocation, Link, useHydrated } from '../../router/router.tsx';
import type { SigninFailure } from './signin-flow.ts';
import { useSignin } from './use-signin.ts';

const FAILURE_TEXT: Record<SigninFailure, { heading: TKey; message: TKey }> = {
  loginFailed: { heading: 'signin.error.loginFailed', message: 'signin.error.invalidLogin' },
  systemError: { heading: 'signin.error.systemError', message: 'signin.error.systemErrorMessage' },
};

/**
 * Spec §4 deferred tasks: at 0 ms the extra links are shown, at 50 ms the pending set-PIN entry is
 * removed, at 500 ms a forced reload is scheduled after LIMITS.forceRefreshMillis.
 */
function useDeferredTasks(): boolean {
  const [extrasReady, setExtrasReady] = useState(false);
  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    timers.push(setTimeout(() => setExtrasReady(true), 0));
    timers.push(setTimeout(() => localRemove(SET_PIN_KEY), 50));
    timers.push(
      setTimeout(() => {
        timers.push(setTimeout(() => browser.reload(), LIMITS.forceRefreshMillis));
      }, 500),
    );
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);
  return extrasReady;
}

/** The sign-in screen's heading, also its document title (the server puts it in `<title>`). */
export function signinHeading({
  cobrand,
  appName,
  locale,
  t,
}: Pick<Portal, 'cobrand' | 'appName' | 'locale' | 't'>): string {
  return cobrand ? `${cobrandText(cobrand, locale, 'signInToLabel')} ${appName}`.trim() : t('signin.heading');
}

interface ExtraLink {
  key: TKey;
  href: string;
}

export function SigninScreen() {
  const portal = usePortal();
  const { t, cobrand, cobrandName, locale } = portal;
  const [initialFailure] = useState<SigninFailure | null>(() =>
    new URLSearchParams(currentLocation().search).get('invalidLogin') === 'true' ? 'loginFailed' : null,
  );
  const form = useSignin({ cobrandHost: cobrandName, locale, initialFailure });
  const extrasReady = useDeferredTasks();

  const sso = fssoRedirectTarget(cobrand);
  useEffect(() => {
    if (sso) browser.assign(sso);
  }, [sso]);

  const heading = signinHeading(portal);
  useDocumentTitle(heading);
  // Server-rendered: not submittable before hydration (a native submit would post the form to this page).
  const hydrated = useHydrated();

  const submitKey: TKey =
    cobrand?.abbreviation === SPECIAL_SIGNIN_LABEL_ABBREVIATION ? 'signin.submit.bnc' : 'signin.submit';
  const submitText = form.busy ? t('signin.submitting') : t(submitKey);
  const required = t('validation.requiredField') || 'validation.requiredField';
  const failure = form.failure ? FAILURE_TEXT[form.failure] : null;

  const candidates: [boolean, TKey, string | null | undefined][] = [
    [
      cobrand?.companySelfRegisterSupported === true,
      'signin.companySelfRegister',
      cobrand?.companySelfRegisterUrl ?? screenUrl(portal, 'register-company'),
    ],
    // The co-brand's own page when it names one, else ours (docs/self-registration.md).
    [
      true,
      'signin.cardholderSelfRegister',
      cobrand?.cardholderSelfRegisterUrl ?? screenUrl(portal, 'register'),
    ],
    [
      cobrand?.prospectiveAccountApplicationSupported === true,
      'signin.newAccountApplication',
      cobrand?.prospectiveAccountApplicationUrl ?? screenUrl(portal, 'apply'),
    ],
  ];
  const extras: ExtraLink[] = [];
  for (const [shown, key, href] of candidates) {
    if (shown && isAllowedExternalTarget(href)) extras.push({ key, href });
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit();
  };

  const userIdLabel = t('signin.userId.label');
  const passwordLabel = t('signin.password.label');
  const toggleLabel = t('signin.password.toggle');
  const linksLabel = t('signin.links.label');

  return (
    <div className="cp-card">
      <ScreenHeading>{heading}</ScreenHeading>
      {cobrand?.warningMessage ? <p className="cp-notice">{cobrand.warningMessage}</p> : null}
      <ErrorSummary
        id="signin-error"
        ref={form.errorRef}
        heading={failure ? t(failure.heading) : undefined}
        message={failure ? t(failure.message) : undefined}
      />
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={form.busy}>
        <TextField
          id="userId"
          name="userId"
          label={userIdLabel}
          fallbackName={nameOr(userIdLabel, 'signin.userId.label')}
          value={form.userId}
          onValueChange={form.setUserId}
          error={form.fieldErrors.userId ? required : undefined}
          inputRef={form.userIdRef}
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={LIMITS.userIdMaxLength}
          required
          readOnly={form.busy}
        />
        <PasswordField
          id="password"
          name="password"
          label={passwordLabel}
          fallbackName={nameOr(passwordLabel, 'signin.password.label')}
          value={form.password}
          onValueChange={form.setPassword}
          error={form.fieldErrors.password ? required : undefined}
          inputRef={form.passwordRef}
          toggleLabel={toggleLabel}
          toggleFallbackName={nameOr(toggleLabel, 'signin.password.toggle')}
          autoComplete="current-password"
          maxLength={LIMITS.credentialMaxLength}
          required
          readOnly={form.busy}
        />
        <button
          id="signin-submit"
          type="submit"
          className="cp-button cp-button--primary cp-button--block"
          disabled={form.busy || !hydrated}
          aria-label={nameOr(submitText, submitKey)}
        >
          {submitText}
        </button>
      </form>
      <p className="cp-form__aside">
        <Link
          to={screenUrl(portal, 'forgot-password')}
          aria-label={nameOr(t('signin.forgotPassword'), 'signin.forgotPassword')}
        >
          {t('signin.forgotPassword')}
        </Link>
      </p>
      {extrasReady && extras.length > 0 ? (
        <nav className="cp-links" aria-label={linksLabel || 'signin.links.label'}>
          <ul>
            {extras.map((link) => (
              <li key={link.key}>
                <a href={link.href} rel={relFor(link.href)} aria-label={nameOr(t(link.key), link.key)}>
                  {t(link.key)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}
