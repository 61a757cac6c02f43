import {
  COMPANY_APPLICATION_FIELDS,
  type CompanyApplicationField,
  companyApplicationProblems,
  LIMITS,
} from '@cardportal/domain';
import { applyForCompany } from '../../api/company-registration.ts';
import { usePortal } from '../../app/portal-context.tsx';
import type { TKey } from '../../i18n/i18n.ts';
import { type FieldGroup, failureOf, personField, RegistrationForm } from '../register/registration-form.tsx';

const FORM_MESSAGES: Record<string, TKey> = {
  'registration.notVerified': 'validation.registration.notVerified',
  'registration.notOffered': 'validation.registration.notOffered',
};

const GROUPS: FieldGroup<CompanyApplicationField>[] = [
  {
    legend: 'registerCompany.step.company',
    fields: [
      {
        field: 'code',
        id: 'corporateCode',
        label: 'registerCompany.code.label',
        hint: 'registerCompany.code.hint',
        input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10 },
      },
      {
        field: 'companyName',
        id: 'companyName',
        label: 'registerCompany.companyName.label',
        hint: 'registerCompany.companyName.hint',
        input: { autoComplete: 'organization', maxLength: LIMITS.orgNameMaxLength },
      },
      {
        field: 'companyName2',
        id: 'companyName2',
        label: 'registerCompany.companyName2.label',
        input: { autoComplete: 'off', maxLength: LIMITS.orgNameMaxLength, required: false },
      },
    ],
  },
  {
    legend: 'registerCompany.step.admin',
    note: 'registerCompany.adminNote',
    fields: [
      personField('firstName'),
      personField('lastName'),
      personField('userId'),
      personField('email'),
      personField('emailConfirm'),
    ],
  },
];

/** The answer's meaning for this form (exported for its test). */
export const applicationFailure = (error: unknown) =>
  failureOf(error, COMPANY_APPLICATION_FIELDS, FORM_MESSAGES, 'register.error.generic');

/**
 * Company self-registration (issue 18 item 1, docs/self-registration.md): a company the bank invited
 * applies with the invitation's corporate code and its name as the bank knows it, naming its first
 * program administrator; the bank decides and tells the applicant by e-mail. A refused proof is one
 * message that never says whether the code exists.
 */
export default function RegisterCompanyScreen() {
  const { t, cobrandName, locale } = usePortal();
  return (
    <RegistrationForm
      title="registerCompany.title"
      heading="registerCompany.heading"
      intro="registerCompany.intro"
      groups={GROUPS}
      submit="registerCompany.submit"
      submitting="registerCompany.submitting"
      errorHeading="registerCompany.error.heading"
      problems={companyApplicationProblems}
      send={(v, signal) => applyForCompany({ ...v, locale, cobrandName }, signal)}
      failure={applicationFailure}
      done={(v) => ({
        heading: 'registerCompany.done.heading',
        text: t('registerCompany.done.text', v.companyName, v.email),
      })}
    />
  );
}
