import {
  APPLICATION_REASON_MAX_LENGTH,
  CARD_APPLICATION_FIELDS,
  type CardApplicationField,
  cardApplicationProblems,
} from '@cardportal/domain';
import { applyForCard } from '../../api/card-application.ts';
import { usePortal } from '../../app/portal-context.tsx';
import type { TKey } from '../../i18n/i18n.ts';
import { type FieldGroup, failureOf, personField, RegistrationForm } from '../register/registration-form.tsx';

const FORM_MESSAGES: Record<string, TKey> = {
  'application.notVerified': 'validation.application.notVerified',
  'application.notOffered': 'validation.application.notOffered',
  'application.pending': 'validation.application.pending',
};

const GROUPS: FieldGroup<CardApplicationField>[] = [
  {
    legend: 'apply.step.company',
    fields: [
      {
        field: 'companyCode',
        id: 'companyCode',
        label: 'apply.companyCode.label',
        hint: 'apply.companyCode.hint',
        input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10 },
      },
    ],
  },
  {
    legend: 'apply.step.you',
    fields: [
      personField('firstName'),
      personField('lastName'),
      personField('email'),
      personField('emailConfirm'),
      {
        field: 'reason',
        id: 'reason',
        label: 'apply.reason.label',
        hint: 'apply.reason.hint',
        input: { autoComplete: 'off', maxLength: APPLICATION_REASON_MAX_LENGTH, required: false },
      },
    ],
  },
];

/** The answer's meaning for this form (exported for its test). */
export const applyFailure = (error: unknown) =>
  failureOf(error, CARD_APPLICATION_FIELDS, FORM_MESSAGES, 'register.error.generic');

/**
 * A new card account application (issue 18 item 3, docs/self-registration.md), where the co-brand
 * offers prospective applications: the company's self-registration code and the applicant; the
 * company decides and tells the applicant by mail. A code that leads to no active company is one
 * message, never which.
 */
export default function ApplyScreen() {
  const { t, cobrandName, locale } = usePortal();
  return (
    <RegistrationForm
      title="apply.title"
      heading="apply.heading"
      intro="apply.intro"
      groups={GROUPS}
      submit="apply.submit"
      submitting="apply.submitting"
      errorHeading="apply.error.heading"
      problems={cardApplicationProblems}
      send={(v, signal) => applyForCard({ ...v, locale, cobrandName }, signal)}
      failure={applyFailure}
      done={(v) => ({ heading: 'apply.done.heading', text: t('apply.done.text', v.email) })}
    />
  );
}
