import {
  cardholderRegistrationProblems,
  REGISTRATION_FIELDS,
  type RegistrationField,
} from '@cardportal/domain';
import { registerCardholder } from '../../api/cardholder-registration.ts';
import { usePortal } from '../../app/portal-context.tsx';
import type { TKey } from '../../i18n/i18n.ts';
import { type FieldGroup, failureOf, personField, RegistrationForm } from './registration-form.tsx';

/** The proof's refusals a person may see as one message (never which part was wrong). */
const FORM_MESSAGES: Record<string, TKey> = {
  'registration.notVerified': 'validation.registration.notVerified',
  'registration.alreadyRegistered': 'validation.registration.alreadyRegistered',
};

/** The card's proof, then the user to create (seed 001 §5's rules on both). */
const GROUPS: FieldGroup<RegistrationField>[] = [
  {
    legend: 'register.step.card',
    fields: [
      {
        field: 'cardNumber',
        id: 'cardNumber',
        label: 'register.cardNumber.label',
        hint: 'register.cardNumber.hint',
        // Never offered to the browser's card autofill store: the number is a proof here, not a payment.
        input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 23 },
      },
      {
        field: 'companyCode',
        id: 'companyCode',
        label: 'register.companyCode.label',
        hint: 'register.companyCode.hint',
        input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10 },
      },
      {
        field: 'expiry',
        id: 'cardExpiry',
        label: 'register.expiry.label',
        hint: 'register.expiry.hint',
        input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 5 },
      },
    ],
  },
  {
    legend: 'register.step.user',
    fields: [personField('userId'), personField('email'), personField('emailConfirm')],
  },
];

/** The answer's meaning for this form (exported for its test). */
export const registerFailure = (error: unknown) =>
  failureOf(error, REGISTRATION_FIELDS, FORM_MESSAGES, 'register.error.generic');

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md): a cardholder proves a
 * card — its number, the company's code and the card's expiry — and chooses a user ID; the first
 * password goes to the address given. A refused proof is one message that never says which part was
 * wrong; the card number is gone from the page once registered.
 */
export default function RegisterScreen() {
  const { t, cobrandName, locale } = usePortal();
  return (
    <RegistrationForm
      title="register.title"
      heading="register.heading"
      intro="register.intro"
      groups={GROUPS}
      submit="register.submit"
      submitting="register.submitting"
      errorHeading="register.error.heading"
      note="register.ssoNote"
      problems={cardholderRegistrationProblems}
      send={(v, signal) => registerCardholder({ ...v, locale, cobrandName }, signal)}
      failure={registerFailure}
      done={(v) => ({ heading: 'register.done.heading', text: t('register.done.text', v.email) })}
    />
  );
}
