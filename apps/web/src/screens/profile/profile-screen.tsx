import {
  checkSecurityAnswer,
  LOCALE_NAMES,
  type Locale,
  type Profile,
  type SoftTokenEnrolment,
} from '@cardportal/domain';
import { ErrorSummary, FieldError, PasswordField } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import {
  getProfile,
  issueSoftToken,
  setChallengeQuestion,
  setLanguage,
  setTwoFactor,
} from '../../api/profile.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { displayName, useApp } from '../../lib/app-context.tsx';
import { type FieldProblems, useForm } from '../../lib/use-form.ts';

/** Reloads the page (a new language needs the whole application's texts); replaced in tests. */
export const pageReload = { run: () => window.location.reload() };

/** The QR code's SVG as an image source: never inserted as markup. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

type QuestionField = 'questionId' | 'answer' | 'currentPassword';

export function validateQuestion(values: Record<QuestionField, string>): FieldProblems<QuestionField> {
  const problems: FieldProblems<QuestionField> = {};
  if (!values.questionId) problems.questionId = 'securityQuestion.required';
  const answer = checkSecurityAnswer(values.answer)[0];
  if (answer) problems.answer = answer;
  if (!values.currentPassword) problems.currentPassword = 'currentPassword.required';
  return problems;
}

/**
 * My Profile: the user's details, change password (the portal's screen), preferred language,
 * challenge question, two-factor sign-in and, for token users, the soft-token download.
 */
export function ProfileScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.nav.profile'));
  const [profile, setProfile] = useState<Profile | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    getProfile(controller.signal).then(setProfile, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
    return () => controller.abort();
  }, []);

  return (
    <>
      <h1>{t('app.nav.profile')}</h1>
      <ErrorSummary id="profile-error" message={problem ? problemText(problem) : undefined} />
      {!profile && !problem ? <p>{t('common.loading')}</p> : null}
      {profile ? (
        <>
          <Details profile={profile} />
          <LanguageSection profile={profile} />
          <QuestionSection profile={profile} onSaved={setProfile} />
          {profile.loginType === 'token' ? (
            <SoftTokenSection />
          ) : (
            <TwoFactorSection profile={profile} onSaved={setProfile} />
          )}
        </>
      ) : null}
    </>
  );
}

function Details({ profile }: { profile: Profile }) {
  const { t, user } = useApp();
  return (
    <section aria-labelledby="profile-details-heading">
      <h2 id="profile-details-heading">{t('app.profile.details')}</h2>
      <dl className="app-facts" id="profile-facts">
        <dt>{t('app.userId')}</dt>
        <dd>{profile.userId}</dd>
        <dt>{t('app.people.field.name')}</dt>
        <dd>{displayName(profile)}</dd>
        <dt>{t('app.people.field.email')}</dt>
        <dd>{profile.email}</dd>
        <dt>{t('app.userType')}</dt>
        <dd>{t(`app.userType.${user.userType}`)}</dd>
      </dl>
      <p>
        <a className="app-button" id="change-password" href={profile.changePasswordUrl}>
          {t('app.profile.changePassword')}
        </a>
      </p>
    </section>
  );
}

function LanguageSection({ profile }: { profile: Profile }) {
  const { t, problemText } = useApp();
  const [locale, setLocale] = useState(profile.locale);
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await setLanguage(locale);
      pageReload.run();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.code : 'error.generic');
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="profile-language-heading">
      <h2 id="profile-language-heading">{t('app.profile.language.heading')}</h2>
      <form className="app-form app-form--inline" onSubmit={submit} noValidate id="language-form">
        <div className="cp-field">
          <label className="cp-field__label" htmlFor="profile-locale">
            {t('app.people.field.locale')}
          </label>
          <select
            id="profile-locale"
            className="cp-field__input"
            value={locale}
            onChange={(e) => setLocale(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'profile-locale-error' : undefined}
          >
            {profile.locales.map((code) => (
              <option key={code} value={code} lang={code.replace('_', '-')}>
                {LOCALE_NAMES[code as Locale] ?? code}
              </option>
            ))}
          </select>
          <FieldError id="profile-locale-error" message={problem ? problemText(problem) : undefined} />
        </div>
        <button type="submit" className="app-button app-button--primary" id="language-save" disabled={busy}>
          {t('app.profile.language.save')}
        </button>
      </form>
    </section>
  );
}

function QuestionSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { t, problemText, fieldProblemText } = useApp();
  const [done, setDone] = useState(false);
  const form = useForm<QuestionField>({
    initial: { questionId: profile.securityQuestionId ?? '', answer: '', currentPassword: '' },
    validate: validateQuestion,
    codeFields: { 'currentPassword.wrong': 'currentPassword' },
  });
  const { values, problems } = form;
  const err = (field: QuestionField) => (problems[field] ? fieldProblemText(problems[field]) : undefined);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const ok = await form.submit(async (v) => {
      onSaved(await setChallengeQuestion(v));
    });
    if (ok) {
      form.set('answer', '');
      form.set('currentPassword', '');
      setDone(true);
    }
  };
  return (
    <section aria-labelledby="profile-question-heading">
      <h2 id="profile-question-heading">{t('app.profile.question.heading')}</h2>
      <form className="app-form" onSubmit={submit} noValidate id="question-form">
        <ErrorSummary
          id="question-form-error"
          message={form.formProblem ? problemText(form.formProblem) : undefined}
        />
        <div className={`cp-field${problems.questionId ? ' cp-field--invalid' : ''}`}>
          <label className="cp-field__label" htmlFor="question-questionId">
            {t('app.profile.question.question')}
          </label>
          <select
            id="question-questionId"
            className="cp-field__input"
            value={values.questionId}
            onChange={(e) => form.set('questionId', e.target.value)}
            aria-invalid={problems.questionId ? true : undefined}
            aria-describedby={problems.questionId ? 'question-questionId-error' : undefined}
          >
            <option value="">{t('app.profile.question.choose')}</option>
            {profile.securityQuestionIds.map((id) => (
              <option key={id} value={id}>
                {t(`securityQuestion.${id}`)}
              </option>
            ))}
          </select>
          <FieldError id="question-questionId-error" message={err('questionId')} />
        </div>
        <PasswordField
          id="question-answer"
          label={t('app.profile.question.answer')}
          value={values.answer}
          onValueChange={(v) => form.set('answer', v)}
          error={err('answer')}
          toggleLabel={t('app.profile.showAnswer')}
          autoComplete="off"
        />
        <PasswordField
          id="question-currentPassword"
          label={t('app.profile.currentPassword')}
          value={values.currentPassword}
          onValueChange={(v) => form.set('currentPassword', v)}
          error={err('currentPassword')}
          toggleLabel={t('app.profile.showPassword')}
          autoComplete="current-password"
        />
        <div className="app-actions">
          <button
            type="submit"
            className="app-button app-button--primary"
            id="question-save"
            disabled={form.submitting}
          >
            {t('app.profile.question.save')}
          </button>
        </div>
        <p role="status" className="app-done" id="question-done">
          {done ? t('app.profile.question.done') : ''}
        </p>
      </form>
    </section>
  );
}

function TwoFactorSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { t, problemText, fieldProblemText } = useApp();
  const [notAvailable, setNotAvailable] = useState(false);
  const [done, setDone] = useState(false);
  const form = useForm<'currentPassword'>({
    initial: { currentPassword: '' },
    validate: (v) => (v.currentPassword ? {} : { currentPassword: 'currentPassword.required' }),
    codeFields: { 'currentPassword.wrong': 'currentPassword' },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    const ok = await form.submit(async (v) => {
      try {
        onSaved(await setTwoFactor(!profile.twoFactor, v.currentPassword));
      } catch (error) {
        if (error instanceof ApiError && error.code === 'twoFactor.notAvailable') setNotAvailable(true);
        throw error;
      }
    });
    if (ok) {
      form.set('currentPassword', '');
      setDone(true);
    }
  };
  const problem = form.problems.currentPassword;
  return (
    <section aria-labelledby="profile-two-factor-heading">
      <h2 id="profile-two-factor-heading">{t('app.profile.twoFactor.heading')}</h2>
      <p id="two-factor-state">
        {profile.twoFactor ? t('app.profile.twoFactor.on') : t('app.profile.twoFactor.off')}
      </p>
      {notAvailable ? (
        <p className="app-notice" id="two-factor-not-available">
          {problemText('twoFactor.notAvailable')}
        </p>
      ) : (
        <form className="app-form" onSubmit={submit} noValidate id="two-factor-form">
          <ErrorSummary
            id="two-factor-error"
            message={form.formProblem ? problemText(form.formProblem) : undefined}
          />
          <PasswordField
            id="two-factor-currentPassword"
            label={t('app.profile.currentPassword')}
            value={form.values.currentPassword}
            onValueChange={(v) => form.set('currentPassword', v)}
            error={problem ? fieldProblemText(problem) : undefined}
            toggleLabel={t('app.profile.showPassword')}
            autoComplete="current-password"
          />
          <div className="app-actions">
            <button
              type="submit"
              className="app-button app-button--primary"
              id="two-factor-save"
              disabled={form.submitting}
            >
              {profile.twoFactor ? t('app.profile.twoFactor.disable') : t('app.profile.twoFactor.enable')}
            </button>
          </div>
          <p role="status" className="app-done" id="two-factor-done">
            {done ? t('app.profile.twoFactor.done') : ''}
          </p>
        </form>
      )}
    </section>
  );
}

function SoftTokenSection() {
  const { t, problemText, fieldProblemText } = useApp();
  const [enrolment, setEnrolment] = useState<SoftTokenEnrolment | undefined>();
  const form = useForm<'currentPassword'>({
    initial: { currentPassword: '' },
    validate: (v) => (v.currentPassword ? {} : { currentPassword: 'currentPassword.required' }),
    codeFields: { 'currentPassword.wrong': 'currentPassword' },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await form.submit(async (v) => {
      setEnrolment(await issueSoftToken(v.currentPassword));
    });
    if (ok) {
      form.set('currentPassword', '');
      window.setTimeout(() => document.getElementById('soft-token-result')?.focus(), 0);
    }
  };
  const problem = form.problems.currentPassword;
  return (
    <section aria-labelledby="profile-token-heading">
      <h2 id="profile-token-heading">{t('app.profile.token.heading')}</h2>
      <ol id="soft-token-steps">
        <li>{t('app.profile.token.step1')}</li>
        <li>{t('app.profile.token.step2')}</li>
        <li>{t('app.profile.token.step3')}</li>
      </ol>
      <p className="app-notice">{t('app.profile.token.once')}</p>
      {enrolment ? (
        <div id="soft-token-result" tabIndex={-1}>
          <img
            id="soft-token-qr"
            className="app-qr"
            src={svgDataUrl(enrolment.qrSvg)}
            alt={t('app.profile.token.qrAlt')}
            width={240}
            height={240}
          />
          <dl className="app-facts">
            <dt>{t('app.profile.token.manual')}</dt>
            <dd>
              <code id="soft-token-uri" className="app-selectable">
                {enrolment.uri}
              </code>
            </dd>
            <dt>{t('app.profile.token.pin')}</dt>
            <dd>
              <code id="soft-token-pin">{enrolment.defaultPin}</code>{' '}
              {t('app.profile.token.pinDays', String(enrolment.defaultPinDays))}
            </dd>
          </dl>
        </div>
      ) : (
        <form className="app-form" onSubmit={submit} noValidate id="soft-token-form">
          <ErrorSummary
            id="soft-token-error"
            message={form.formProblem ? problemText(form.formProblem) : undefined}
          />
          <PasswordField
            id="soft-token-currentPassword"
            label={t('app.profile.currentPassword')}
            value={form.values.currentPassword}
            onValueChange={(v) => form.set('currentPassword', v)}
            error={problem ? fieldProblemText(problem) : undefined}
            toggleLabel={t('app.profile.showPassword')}
            autoComplete="current-password"
          />
          <div className="app-actions">
            <button
              type="submit"
              className="app-button app-button--primary"
              id="soft-token-show"
              disabled={form.submitting}
            >
              {t('app.profile.token.show')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
