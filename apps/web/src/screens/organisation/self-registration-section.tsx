import { may } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { applyServerError, useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  SELF_REGISTRATION_CODE_FIELDS,
  selfRegistrationFormSchema,
  selfRegistrationQuery,
  useSetSelfRegistration,
} from './organisation-queries.ts';

/**
 * The company's cardholder self-registration (docs/self-registration.md): whether the program option is
 * in effect, the corporate code its cardholders register with, and how many cards are locked after
 * failed attempts. A company maintainer sets a new code or removes it; a system administrator reads.
 */
export function SelfRegistrationSection({ company }: { company: string }) {
  const { t, user, problemText, languageTag } = useApp();
  const read = useQuery(selfRegistrationQuery(company));
  const settings = read.data;
  const save = useSetSelfRegistration(company);
  const [done, setDone] = useState<'saved' | 'removed' | undefined>();
  const form = useAppForm({
    schema: selfRegistrationFormSchema,
    defaultValues: { code: '' },
    codeFields: SELF_REGISTRATION_CODE_FIELDS,
  });
  const mayMaintain = may({ type: user.userType }, 'maintainSelfRegistration');
  const count = new Intl.NumberFormat(languageTag);

  const remove = async () => {
    setDone(undefined);
    form.clearErrors();
    try {
      await save.mutateAsync(null);
      form.reset({ code: '' });
      setDone('removed');
    } catch (error) {
      applyServerError(form, error, { codeFields: SELF_REGISTRATION_CODE_FIELDS });
    }
  };

  return (
    <section aria-labelledby="self-registration-heading" className="app-section">
      <h2 id="self-registration-heading">{t('app.selfRegistration.heading')}</h2>
      <p>{t('app.selfRegistration.intro')}</p>
      <ErrorSummary
        id="self-registration-error"
        message={read.isError ? problemText(problemOf(read.error)) : undefined}
      />
      <p role="status" id="self-registration-done" className="app-done">
        {done ? t(`app.selfRegistration.${done}`) : ''}
      </p>
      {read.isPending ? <p>{t('common.loading')}</p> : null}
      {settings ? (
        <>
          <dl className="app-facts" id="self-registration-facts">
            <dt>{t('app.selfRegistration.option')}</dt>
            <dd id="self-registration-option">
              {settings.enabled ? t('app.selfRegistration.on') : t('app.selfRegistration.off')}
            </dd>
            <dt>{t('app.selfRegistration.code')}</dt>
            <dd id="self-registration-code-value">{settings.code ?? t('app.selfRegistration.noCode')}</dd>
            <dt>{t('app.selfRegistration.locked')}</dt>
            <dd id="self-registration-locked">
              {count.format(settings.lockedCards)}
              {settings.lockedCards > 0 ? (
                <span className="app-hint"> {t('app.selfRegistration.lockedHint')}</span>
              ) : null}
            </dd>
          </dl>
          {mayMaintain ? (
            <AppForm
              form={form}
              id="self-registration-form"
              errorId="self-registration-form-error"
              onSubmit={async ({ code }) => {
                setDone(undefined);
                await save.mutateAsync(code.trim());
                form.reset({ code: '' });
                setDone('saved');
              }}
            >
              <TextField
                control={form.control}
                name="code"
                id="self-registration-code"
                label={t('app.selfRegistration.codeField')}
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
              />
              <div className="app-actions">
                <SubmitButton form={form} id="self-registration-save" disabled={save.isPending}>
                  {t('app.selfRegistration.save')}
                </SubmitButton>
                {settings.code ? (
                  <button
                    type="button"
                    className="app-button app-button--danger"
                    id="self-registration-remove"
                    disabled={save.isPending}
                    onClick={() => void remove()}
                  >
                    {t('app.selfRegistration.remove')}
                  </button>
                ) : null}
              </div>
            </AppForm>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
