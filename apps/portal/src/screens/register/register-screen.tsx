import {
  cardholderRegistrationProblems,
  LIMITS,
  REGISTRATION_FIELDS,
  type RegistrationField,
} from '@cardportal/domain';
import { ErrorSummary, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { registerCardholder } from '../../api/cardholder-registration.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { FormActions } from '../../layout/form-actions.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { navigate } from '../../router/router.tsx';
import { FIELD_IDS, type RegisterFailure, registerFailure } from './register-flow.ts';

type Values = Record<RegistrationField, string>;
const EMPTY: Values = {
  cardNumber: '',
  companyCode: '',
  expiry: '',
  userId: '',
  email: '',
  emailConfirm: '',
};

interface FieldDef {
  field: RegistrationField;
  label: TKey;
  hint?: TKey;
  input: Partial<{
    inputMode: 'numeric' | 'email' | 'text';
    autoComplete: string;
    maxLength: number;
    type: 'text' | 'email';
  }>;
}

/** The card's proof, then the user to create (seed 001 §5's rules on both). */
const CARD_FIELDS: FieldDef[] = [
  {
    field: 'cardNumber',
    label: 'register.cardNumber.label',
    hint: 'register.cardNumber.hint',
    // Never offered to the browser's card autofill store: the number is a proof here, not a payment.
    input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 23 },
  },
  {
    field: 'companyCode',
    label: 'register.companyCode.label',
    hint: 'register.companyCode.hint',
    input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 10 },
  },
  {
    field: 'expiry',
    label: 'register.expiry.label',
    hint: 'register.expiry.hint',
    input: { inputMode: 'numeric', autoComplete: 'off', maxLength: 5 },
  },
];
const USER_FIELDS: FieldDef[] = [
  {
    field: 'userId',
    label: 'register.userId.label',
    hint: 'register.userId.hint',
    input: { autoComplete: 'username', maxLength: LIMITS.newUserIdMaxLength },
  },
  {
    field: 'email',
    label: 'register.email.label',
    input: { type: 'email', autoComplete: 'email', maxLength: LIMITS.emailMaxLength },
  },
  {
    field: 'emailConfirm',
    label: 'register.emailConfirm.label',
    input: { type: 'email', autoComplete: 'email', maxLength: LIMITS.emailMaxLength },
  },
];

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md): a cardholder proves a
 * card — its number, the company's code and the card's expiry — and chooses a user ID; the first
 * password goes to the address given. Every field is checked here by the server's own rules first;
 * a refused proof is one message that never says which part was wrong. The error summary takes focus
 * and lists the fields to correct; the confirmation's heading takes focus when it appears.
 */
export default function RegisterScreen() {
  const portal = usePortal();
  const { t, appName, cobrandName, locale } = portal;
  const [values, setValues] = useState<Values>(EMPTY);
  const [failure, setFailure] = useState<RegisterFailure | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [focusTick, setFocusTick] = useState(0);

  useDocumentTitle(t('common.pageTitle', t('register.title'), appName));
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    if (focusTick === 0) return;
    (sentTo ? doneRef.current : summaryRef.current)?.focus();
  }, [focusTick, sentTo]);

  const set = (field: RegistrationField) => (value: string) =>
    setValues((prev) => ({ ...prev, [field]: value }));
  const fieldErrors = failure?.kind === 'fields' ? failure.fields : {};
  const label = (def: FieldDef) => t(def.label);
  const errorText = (code: string) => t(`validation.${code}` as TKey) || code;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current) return;
    const problems = cardholderRegistrationProblems(values);
    if (Object.keys(problems).length > 0) {
      setFailure({ kind: 'fields', fields: problems });
      setFocusTick((n) => n + 1);
      return;
    }
    busyRef.current = true;
    setBusy(true);
    setFailure(null);
    const controller = new AbortController();
    abortRef.current = controller;
    void registerCardholder(
      {
        cardNumber: values.cardNumber,
        companyCode: values.companyCode.trim(),
        expiry: values.expiry.trim(),
        userId: values.userId.trim(),
        email: values.email.trim(),
        emailConfirm: values.emailConfirm.trim(),
        locale,
        cobrandName,
      },
      controller.signal,
    )
      .then(() => {
        if (controller.signal.aborted) return;
        setSentTo(values.email.trim());
        setValues(EMPTY);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setFailure(registerFailure(error));
      })
      .finally(() => {
        busyRef.current = false;
        setBusy(false);
        if (!controller.signal.aborted) setFocusTick((n) => n + 1);
      });
  };

  const toSignin = () => navigate(screenUrl(portal, 'signin'));
  const heading = t('register.heading');

  if (sentTo) {
    const returnText = t('register.returnToLogin');
    return (
      <div className="cp-card">
        <ScreenHeading>{heading}</ScreenHeading>
        <h2 ref={doneRef} tabIndex={-1} className="cp-subheading" id="register-done">
          {t('register.done.heading')}
        </h2>
        <p className="cp-text">{t('register.done.text', sentTo)}</p>
        <button
          id="return-to-login"
          type="button"
          className="cp-button cp-button--primary"
          aria-label={nameOr(returnText, 'register.returnToLogin')}
          onClick={toSignin}
        >
          {returnText}
        </button>
      </div>
    );
  }

  const items =
    failure?.kind === 'fields'
      ? REGISTRATION_FIELDS.filter((f) => fieldErrors[f]).map((f) => ({
          fieldId: FIELD_IDS[f],
          text: `${label([...CARD_FIELDS, ...USER_FIELDS].find((d) => d.field === f) as FieldDef)}: ${errorText(fieldErrors[f] as string)}`,
        }))
      : [];

  const renderField = (def: FieldDef) => {
    const text = label(def);
    const error = fieldErrors[def.field];
    return (
      <TextField
        key={def.field}
        id={FIELD_IDS[def.field]}
        name={def.field}
        label={text}
        fallbackName={nameOr(text, def.label)}
        hint={def.hint ? t(def.hint) : undefined}
        value={values[def.field]}
        onValueChange={set(def.field)}
        error={error ? errorText(error) : undefined}
        spellCheck={false}
        autoCapitalize="off"
        required
        readOnly={busy}
        {...def.input}
      />
    );
  };

  return (
    <div className="cp-card">
      <ScreenHeading>{heading}</ScreenHeading>
      <p className="cp-text">{t('register.intro')}</p>
      <ErrorSummary
        id="register-error"
        ref={summaryRef}
        heading={failure ? t('register.error.heading') : undefined}
        message={
          failure?.kind === 'form' ? t(failure.message) : failure ? t('register.error.fields') : undefined
        }
        items={items}
      />
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <fieldset className="cp-fieldset">
          <legend className="cp-fieldset__legend">{t('register.step.card')}</legend>
          {CARD_FIELDS.map(renderField)}
        </fieldset>
        <fieldset className="cp-fieldset">
          <legend className="cp-fieldset__legend">{t('register.step.user')}</legend>
          {USER_FIELDS.map(renderField)}
        </fieldset>
        <FormActions
          submitText={busy ? t('register.submitting') : t('register.submit')}
          submitKey="register.submit"
          cancelText={t('common.cancel')}
          busy={busy}
          onCancel={toSignin}
        />
      </form>
      <p className="cp-note">{t('register.ssoNote')}</p>
    </div>
  );
}
