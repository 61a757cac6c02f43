import { LIMITS, USER_NAME_MAX_LENGTH } from '@cardportal/domain';
import { ErrorSummary, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, serviceErrorCode } from '../../api/client.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { FormActions } from '../../layout/form-actions.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { navigate } from '../../router/router.tsx';

/**
 * The portal's registration forms (docs/self-registration.md): a cardholder's and a company's. Both are
 * groups of labelled fields with their format as a hint, checked first by the server's own rules (the
 * domain's); a refused form puts the focus on the error summary, whose links lead to the fields; a sent
 * one shows its confirmation, whose heading takes the focus.
 */

export interface FieldDef<F extends string> {
  field: F;
  /** The element id (DESIGN §4 keeps the portal's ids stable). */
  id: string;
  label: TKey;
  hint?: TKey;
  input?: Partial<{
    inputMode: 'numeric' | 'email' | 'text';
    autoComplete: string;
    maxLength: number;
    type: 'text' | 'email';
    required: boolean;
  }>;
}

/** The fields every registration form asks of the person, alike on each (ids, labels, autocomplete). */
const PERSON_FIELDS = {
  firstName: {
    id: 'firstName',
    label: 'registerCompany.firstName.label',
    input: { autoComplete: 'given-name', maxLength: USER_NAME_MAX_LENGTH },
  },
  lastName: {
    id: 'lastName',
    label: 'registerCompany.lastName.label',
    input: { autoComplete: 'family-name', maxLength: USER_NAME_MAX_LENGTH },
  },
  userId: {
    id: 'userId',
    label: 'register.userId.label',
    hint: 'register.userId.hint',
    input: { autoComplete: 'username', maxLength: LIMITS.newUserIdMaxLength },
  },
  email: {
    id: 'email',
    label: 'register.email.label',
    input: { type: 'email', autoComplete: 'email', maxLength: LIMITS.emailMaxLength },
  },
  emailConfirm: {
    id: 'emailConfirm',
    label: 'register.emailConfirm.label',
    input: { type: 'email', autoComplete: 'email', maxLength: LIMITS.emailMaxLength },
  },
} as const satisfies Record<string, Omit<FieldDef<string>, 'field'>>;

/** One of the person's fields, for a form whose values name it so. */
export function personField<F extends string>(field: F & keyof typeof PERSON_FIELDS): FieldDef<F> {
  return { field, ...PERSON_FIELDS[field] };
}

export interface FieldGroup<F extends string> {
  legend: TKey;
  note?: TKey;
  fields: FieldDef<F>[];
}

/** What a failed send shows: field errors (message keys), or one message for the form. */
export type FormFailure<F extends string> =
  | { kind: 'fields'; fields: Partial<Record<F, string>> }
  | { kind: 'form'; message: TKey };

/**
 * The answer's meaning: the server's field errors (its codes are `validation.{code}` messages), one of
 * the form's known refusals, or the generic failure for anything else (a network failure too).
 */
export function failureOf<F extends string>(
  error: unknown,
  fields: readonly F[],
  formMessages: Readonly<Record<string, TKey>>,
  generic: TKey,
): FormFailure<F> {
  if (error instanceof ApiError && error.fieldErrors && Object.keys(error.fieldErrors).length > 0) {
    const found: Partial<Record<F, string>> = {};
    for (const [field, code] of Object.entries(error.fieldErrors)) {
      if ((fields as readonly string[]).includes(field)) found[field as F] = code;
    }
    if (Object.keys(found).length > 0) return { kind: 'fields', fields: found };
  }
  const code = serviceErrorCode(error);
  const message = code !== undefined && Object.hasOwn(formMessages, code) ? formMessages[code] : undefined;
  return { kind: 'form', message: message ?? generic };
}

export interface RegistrationFormProps<F extends string> {
  title: TKey;
  heading: TKey;
  intro: TKey;
  groups: FieldGroup<F>[];
  submit: TKey;
  submitting: TKey;
  errorHeading: TKey;
  note?: TKey;
  /** The rules' problems of the values, before anything is sent. */
  problems: (values: Record<F, string>) => Partial<Record<F, string>>;
  /** Sends the values, each trimmed. */
  send: (values: Record<F, string>, signal: AbortSignal) => Promise<void>;
  failure: (error: unknown) => FormFailure<F>;
  /** The confirmation: its heading and text, from the (trimmed) values sent. */
  done: (values: Record<F, string>) => { heading: TKey; text: string };
}

export function RegistrationForm<F extends string>(props: RegistrationFormProps<F>) {
  const portal = usePortal();
  const { t, appName } = portal;
  const allFields = props.groups.flatMap((g) => g.fields);
  const empty = Object.fromEntries(allFields.map((d) => [d.field, ''])) as Record<F, string>;
  const [values, setValues] = useState<Record<F, string>>(empty);
  const [failure, setFailure] = useState<FormFailure<F> | null>(null);
  const [sent, setSent] = useState<{ heading: TKey; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [focusTick, setFocusTick] = useState(0);

  useDocumentTitle(t('common.pageTitle', t(props.title), appName));
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    if (focusTick === 0) return;
    (sent ? doneRef.current : summaryRef.current)?.focus();
  }, [focusTick, sent]);

  const fieldErrors: Partial<Record<F, string>> = failure?.kind === 'fields' ? failure.fields : {};
  const errorText = (code: string) => t(`validation.${code}` as TKey) || code;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current) return;
    const problems = props.problems(values);
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
    const sending = Object.fromEntries(
      Object.entries<string>(values).map(([field, value]) => [field, value.trim()]),
    ) as Record<F, string>;
    void props
      .send(sending, controller.signal)
      .then(() => {
        if (controller.signal.aborted) return;
        setSent(props.done(sending));
        setValues(empty);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setFailure(props.failure(error));
      })
      .finally(() => {
        busyRef.current = false;
        setBusy(false);
        if (!controller.signal.aborted) setFocusTick((n) => n + 1);
      });
  };

  const toSignin = () => navigate(screenUrl(portal, 'signin'));

  if (sent) {
    const returnText = t('register.returnToLogin');
    return (
      <div className="cp-card">
        <ScreenHeading>{t(props.heading)}</ScreenHeading>
        <h2 ref={doneRef} tabIndex={-1} className="cp-subheading" id="register-done">
          {t(sent.heading)}
        </h2>
        <p className="cp-text">{sent.text}</p>
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
      ? allFields
          .filter((d) => fieldErrors[d.field])
          .map((d) => ({
            fieldId: d.id,
            text: `${t(d.label)}: ${errorText(fieldErrors[d.field] as string)}`,
          }))
      : [];

  const renderField = (def: FieldDef<F>) => {
    const text = t(def.label);
    const error = fieldErrors[def.field];
    const { required = true, ...input } = def.input ?? {};
    return (
      <TextField
        key={def.field}
        id={def.id}
        name={def.field}
        label={text}
        fallbackName={nameOr(text, def.label)}
        hint={def.hint ? t(def.hint) : undefined}
        value={values[def.field]}
        onValueChange={(value) => setValues((prev) => ({ ...prev, [def.field]: value }))}
        error={error ? errorText(error) : undefined}
        spellCheck={false}
        autoCapitalize="off"
        required={required}
        readOnly={busy}
        {...input}
      />
    );
  };

  return (
    <div className="cp-card">
      <ScreenHeading>{t(props.heading)}</ScreenHeading>
      <p className="cp-text">{t(props.intro)}</p>
      <ErrorSummary
        id="register-error"
        ref={summaryRef}
        heading={failure ? t(props.errorHeading) : undefined}
        message={
          failure?.kind === 'form' ? t(failure.message) : failure ? t('register.error.fields') : undefined
        }
        items={items}
      />
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
        {props.groups.map((group) => (
          <fieldset className="cp-fieldset" key={group.legend}>
            <legend className="cp-fieldset__legend">{t(group.legend)}</legend>
            {group.note ? <p className="cp-note">{t(group.note)}</p> : null}
            {group.fields.map(renderField)}
          </fieldset>
        ))}
        <FormActions
          submitText={busy ? t(props.submitting) : t(props.submit)}
          submitKey={props.submit}
          cancelText={t('common.cancel')}
          busy={busy}
          onCancel={toSignin}
        />
      </form>
      {props.note ? <p className="cp-note">{t(props.note)}</p> : null}
    </div>
  );
}
