import {
  LOCALE_NAMES,
  type Locale,
  type Profile,
  SECURITY_QUESTION_IDS,
  type SecurityQuestionId,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { PasswordField, SelectField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { displayName, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  CURRENT_PASSWORD_CODES,
  languageFormSchema,
  profileQuery,
  questionFormSchema,
  softTokenFormSchema,
  twoFactorFormSchema,
  useIssueSoftToken,
  useSetChallengeQuestion,
  useSetLanguage,
  useSetTwoFactor,
} from './profile-queries.ts';

/** Reloads the page (a new language needs the whole application's texts); replaced in tests. */
export const pageReload = { run: () => window.location.reload() };

/** The QR code's SVG as an image source: never inserted as markup. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * My Profile: the user's details, change password (the portal's screen), preferred language,
 * challenge question, two-factor sign-in and, for token users, the soft-token download.
 */
export function ProfileScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.nav.profile'));
  const query = useQuery(profileQuery());
  const profile = query.data;
  const problem = query.isError ? problemOf(query.error) : undefined;

  return (
    <>
      <h1>{t('app.nav.profile')}</h1>
      <ErrorSummary id="profile-error" message={problem ? problemText(problem) : undefined} />
      {query.isPending ? <p role="status">{t('common.loading')}</p> : null}
      {profile ? (
        <div className="app-sections">
          <Details profile={profile} />
          <LanguageSection profile={profile} />
          <QuestionSection profile={profile} />
          {profile.loginType === 'token' ? <SoftTokenSection /> : <TwoFactorSection profile={profile} />}
        </div>
      ) : null}
    </>
  );
}

/** A question the texts know (the catalogue's ids). */
const isQuestionId = (id: string): id is SecurityQuestionId =>
  (SECURITY_QUESTION_IDS as readonly string[]).includes(id);

function Details({ profile }: { profile: Profile }) {
  const { t, user } = useApp();
  return (
    <section className="app-section" aria-labelledby="profile-details-heading">
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
  const { t } = useApp();
  const save = useSetLanguage();
  const form = useAppForm({
    schema: languageFormSchema,
    defaultValues: { locale: profile.locale },
    codeFields: { 'locale.invalid': 'locale' },
  });
  return (
    <section className="app-section" aria-labelledby="profile-language-heading">
      <h2 id="profile-language-heading">{t('app.profile.language.heading')}</h2>
      <AppForm
        form={form}
        id="language-form"
        errorId="language-form-error"
        onSubmit={async (values) => {
          await save.mutateAsync(values);
          pageReload.run();
        }}
      >
        <SelectField
          control={form.control}
          name="locale"
          id="profile-locale"
          label={t('app.people.field.locale')}
          options={profile.locales.map((code) => ({
            value: code,
            label: LOCALE_NAMES[code as Locale] ?? code,
            lang: code.replace('_', '-'),
          }))}
        />
        <div className="app-actions">
          <SubmitButton form={form} id="language-save">
            {t('app.profile.language.save')}
          </SubmitButton>
        </div>
      </AppForm>
    </section>
  );
}

function QuestionSection({ profile }: { profile: Profile }) {
  const { t } = useApp();
  const [done, setDone] = useState(false);
  const save = useSetChallengeQuestion();
  const form = useAppForm({
    schema: questionFormSchema,
    defaultValues: { questionId: profile.securityQuestionId ?? '', answer: '', currentPassword: '' },
    codeFields: CURRENT_PASSWORD_CODES,
  });
  return (
    <section className="app-section" aria-labelledby="profile-question-heading">
      <h2 id="profile-question-heading">{t('app.profile.question.heading')}</h2>
      <AppForm
        form={form}
        id="question-form"
        errorId="question-form-error"
        onSubmit={async (values) => {
          setDone(false);
          const saved = await save.mutateAsync(values);
          form.reset({
            questionId: saved.securityQuestionId ?? values.questionId,
            answer: '',
            currentPassword: '',
          });
          setDone(true);
        }}
      >
        <SelectField
          control={form.control}
          name="questionId"
          id="question-questionId"
          label={t('app.profile.question.question')}
          placeholder={t('app.profile.question.choose')}
          options={profile.securityQuestionIds.filter(isQuestionId).map((id) => ({
            value: id,
            label: t(`securityQuestion.${id}`),
          }))}
        />
        <PasswordField
          control={form.control}
          name="answer"
          id="question-answer"
          label={t('app.profile.question.answer')}
          toggleLabel={t('app.profile.showAnswer')}
          autoComplete="off"
        />
        <PasswordField
          control={form.control}
          name="currentPassword"
          id="question-currentPassword"
          label={t('app.profile.currentPassword')}
          toggleLabel={t('app.profile.showPassword')}
          autoComplete="current-password"
        />
        <div className="app-actions">
          <SubmitButton form={form} id="question-save">
            {t('app.profile.question.save')}
          </SubmitButton>
        </div>
        <p role="status" className="app-done" id="question-done">
          {done ? t('app.profile.question.done') : ''}
        </p>
      </AppForm>
    </section>
  );
}

function TwoFactorSection({ profile }: { profile: Profile }) {
  const { t, problemText } = useApp();
  const [notAvailable, setNotAvailable] = useState(false);
  const [done, setDone] = useState(false);
  const save = useSetTwoFactor();
  const form = useAppForm({
    schema: twoFactorFormSchema,
    defaultValues: { currentPassword: '' },
    codeFields: CURRENT_PASSWORD_CODES,
  });
  return (
    <section className="app-section" aria-labelledby="profile-two-factor-heading">
      <h2 id="profile-two-factor-heading">{t('app.profile.twoFactor.heading')}</h2>
      <p id="two-factor-state">
        {profile.twoFactor ? t('app.profile.twoFactor.on') : t('app.profile.twoFactor.off')}
      </p>
      {notAvailable ? (
        <p className="app-notice" id="two-factor-not-available">
          {problemText('twoFactor.notAvailable')}
        </p>
      ) : (
        <AppForm
          form={form}
          id="two-factor-form"
          errorId="two-factor-error"
          onSubmit={async ({ currentPassword }) => {
            setDone(false);
            try {
              await save.mutateAsync({ enabled: !profile.twoFactor, currentPassword });
            } catch (error) {
              if (error instanceof ApiError && error.code === 'twoFactor.notAvailable') setNotAvailable(true);
              throw error;
            }
            form.reset({ currentPassword: '' });
            setDone(true);
          }}
        >
          <PasswordField
            control={form.control}
            name="currentPassword"
            id="two-factor-currentPassword"
            label={t('app.profile.currentPassword')}
            toggleLabel={t('app.profile.showPassword')}
            autoComplete="current-password"
          />
          <div className="app-actions">
            <SubmitButton form={form} id="two-factor-save">
              {profile.twoFactor ? t('app.profile.twoFactor.disable') : t('app.profile.twoFactor.enable')}
            </SubmitButton>
          </div>
          <p role="status" className="app-done" id="two-factor-done">
            {done ? t('app.profile.twoFactor.done') : ''}
          </p>
        </AppForm>
      )}
    </section>
  );
}

function SoftTokenSection() {
  const { t, tCount } = useApp();
  const issue = useIssueSoftToken();
  const result = useRef<HTMLDivElement>(null);
  const form = useAppForm({
    schema: softTokenFormSchema,
    defaultValues: { currentPassword: '' },
    codeFields: CURRENT_PASSWORD_CODES,
  });
  const enrolment = issue.data;
  return (
    <section className="app-section" aria-labelledby="profile-token-heading">
      <h2 id="profile-token-heading">{t('app.profile.token.heading')}</h2>
      <ol id="soft-token-steps">
        <li>{t('app.profile.token.step1')}</li>
        <li>{t('app.profile.token.step2')}</li>
        <li>{t('app.profile.token.step3')}</li>
      </ol>
      <p className="app-notice">{t('app.profile.token.once')}</p>
      {enrolment ? (
        <div id="soft-token-result" tabIndex={-1} ref={result}>
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
              {tCount('app.profile.token.pinDays', enrolment.defaultPinDays)}
            </dd>
          </dl>
        </div>
      ) : (
        <AppForm
          form={form}
          id="soft-token-form"
          errorId="soft-token-error"
          onSubmit={async (values) => {
            await issue.mutateAsync(values);
            form.reset({ currentPassword: '' });
            window.setTimeout(() => result.current?.focus(), 0);
          }}
        >
          <PasswordField
            control={form.control}
            name="currentPassword"
            id="soft-token-currentPassword"
            label={t('app.profile.currentPassword')}
            toggleLabel={t('app.profile.showPassword')}
            autoComplete="current-password"
          />
          <div className="app-actions">
            <SubmitButton form={form} id="soft-token-show">
              {t('app.profile.token.show')}
            </SubmitButton>
          </div>
        </AppForm>
      )}
    </section>
  );
}
