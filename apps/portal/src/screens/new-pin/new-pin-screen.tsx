import { LIMITS } from '@cardportal/domain';
import { PasswordField } from '@cardportal/ui';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { heraclesLogin } from '../../api/heracles-login.ts';
import { getRsaInformation } from '../../api/rsa-information.ts';
import { postNewPin } from '../../api/token-pin.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { FormActions } from '../../layout/form-actions.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { browser } from '../../lib/browser.ts';
import { safeRedirect } from '../../lib/redirect.ts';
import { localGet, localRemove, localSet, SET_PIN_KEY, sessionGet, USER_ID_KEY } from '../../lib/storage.ts';
import { logoutAndLeave } from '../../session/logout.ts';
import { PortalSessionWarning } from '../../session/session-warning.tsx';
import {
  NEW_PIN_FIELDS,
  type NewPinError,
  type NewPinErrors,
  type NewPinField,
  type NewPinValues,
  pinFailure,
  validateNewPin,
} from './new-pin-flow.ts';

const FIELD_TEXT: Record<NewPinField, { label: TKey; toggle: TKey }> = {
  newPin: { label: 'newPin.newPin.label', toggle: 'newPin.newPin.toggle' },
  confirmPin: { label: 'newPin.confirmPin.label', toggle: 'newPin.confirmPin.toggle' },
  nextPasscode: { label: 'newPin.nextPasscode.label', toggle: 'newPin.nextPasscode.toggle' },
};

const ERROR_TEXT: Record<NewPinError, TKey> = {
  required: 'validation.requiredField',
  pinFormat: 'newPin.error.pinFormat',
  doNotMatch: 'newPin.error.doNotMatch',
  leadingZero: 'newPin.error.leadingZero',
  invalidNextToken: 'newPin.error.invalidNextToken',
  invalidPin: 'newPin.error.invalidPin',
};

const EMPTY: NewPinValues = { newPin: '', confirmPin: '', nextPasscode: '' };

/**
 * New PIN and next passcode (spec §2, §4, §5, §8). Allowed only when the server says so (else logout).
 * Submit keeps the PIN in localStorage `setPin` while the passcode signs in (token login type), then
 * posts the PIN; a pending `setPin` found on load is sent at once. Success, cancel and every failure
 * but an invalid PIN end in logout.
 */
export default function NewPinScreen() {
  const portal = usePortal();
  const { t, appName } = portal;
  const [ldapId, setLdapId] = useState<string | null>(null);
  const [values, setValues] = useState<NewPinValues>(EMPTY);
  const [errors, setErrors] = useState<NewPinErrors>({});
  const [busy, setBusy] = useState(false);
  const [expanded, setExpanded] = useState(true);
  const [focusField, setFocusField] = useState<{ field: NewPinField; n: number } | null>(null);
  const busyRef = useRef(false);
  const inputs = useRef<Partial<Record<NewPinField, HTMLInputElement | null>>>({});
  const logoutUrl = screenUrl(portal, 'logout');

  useDocumentTitle(t('common.pageTitle', t('newPin.title'), appName));
  useEffect(() => {
    if (focusField) inputs.current[focusField.field]?.focus();
  }, [focusField]);

  const leave = useCallback(
    (messageKey?: TKey) => {
      busyRef.current = true;
      setBusy(true);
      void logoutAndLeave(logoutUrl, messageKey);
    },
    [logoutUrl],
  );

  const showErrors = useCallback((next: NewPinErrors) => {
    setErrors(next);
    const first = NEW_PIN_FIELDS.find((field) => next[field]);
    if (first) setFocusField((prev) => ({ field: first, n: (prev?.n ?? 0) + 1 }));
  }, []);

  /** Posts the PIN (the passcode was verified); spec §8 decides what each answer means. */
  const sendPin = useCallback(
    async (id: string, pin: string) => {
      busyRef.current = true;
      setBusy(true);
      try {
        const answer = await postNewPin(id, pin);
        localRemove(SET_PIN_KEY);
        const target = safeRedirect(answer?.redirect);
        if (target) browser.assign(target);
        else leave();
      } catch (error) {
        localRemove(SET_PIN_KEY);
        const failure = pinFailure(error);
        if (failure === 'invalidPin') {
          setValues(EMPTY);
          showErrors({ newPin: 'invalidPin' });
          busyRef.current = false;
          setBusy(false);
        } else {
          leave(failure === 'serverDown' ? 'newPin.error.serverDown' : 'newPin.error.generic');
        }
      }
    },
    [leave, showErrors],
  );

  // On load: may this session be here? Then send a pending PIN, else show the form.
  useEffect(() => {
    const controller = new AbortController();
    getRsaInformation('newpin', controller.signal).then(
      (info) => {
        if (controller.signal.aborted) return;
        if (info?.shouldAccess !== true || typeof info.ldapId !== 'string' || !info.ldapId) {
          leave();
          return;
        }
        setLdapId(info.ldapId);
        const pending = localGet(SET_PIN_KEY);
        if (pending) {
          localRemove(SET_PIN_KEY);
          void sendPin(info.ldapId, pending);
        }
      },
      () => {
        if (!controller.signal.aborted) leave();
      },
    );
    return () => controller.abort();
  }, [leave, sendPin]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current || !ldapId) return;
    const found = validateNewPin(values);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    busyRef.current = true;
    setBusy(true);
    localSet(SET_PIN_KEY, values.newPin);
    let answer: string;
    try {
      answer = await heraclesLogin({
        username: sessionGet(USER_ID_KEY) ?? '',
        password: values.nextPasscode,
        loginFormType: 'token',
      });
    } catch {
      localRemove(SET_PIN_KEY);
      leave();
      return;
    }
    // The passcode was accepted when the server keeps us on this screen; any other page it names
    // (the locked screen after too many failures) is where we go instead.
    const target = safeRedirect(answer);
    if (target && new URL(target, window.location.origin).pathname !== window.location.pathname) {
      localRemove(SET_PIN_KEY);
      browser.assign(target);
      return;
    }
    await sendPin(ldapId, values.newPin);
  };

  const set = (field: NewPinField) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  if (!ldapId) {
    return (
      <div className="cp-card" aria-busy="true">
        <ScreenHeading>{t('newPin.heading')}</ScreenHeading>
        <p className="cp-loading" role="status">
          {t('common.loading')}
        </p>
      </div>
    );
  }

  const submitText = t('newPin.submit');
  const cancelText = t('common.cancel');
  const toggleText = expanded ? t('newPin.instructions.hide') : t('newPin.instructions.show');
  const instructionsHeading = t('newPin.instructions.heading');

  return (
    <div className="cp-card">
      <ScreenHeading>{t('newPin.heading')}</ScreenHeading>
      <section className="cp-instructions" aria-labelledby="new-pin-instructions-heading">
        <div className="cp-instructions__bar">
          <h2 id="new-pin-instructions-heading" className="cp-subheading">
            {instructionsHeading || 'newPin.instructions.heading'}
          </h2>
          <button
            id="instructions-toggle"
            type="button"
            className="cp-link-button"
            aria-expanded={expanded}
            aria-controls="new-pin-instructions"
            aria-label={toggleText ? undefined : 'newPin.instructions.hide'}
            onClick={() => setExpanded((open) => !open)}
          >
            {toggleText}
          </button>
        </div>
        <ol id="new-pin-instructions" className="cp-instructions__list" hidden={!expanded}>
          <li>{t('newPin.instructions.line1', LIMITS.pinDigits)}</li>
          <li>{t('newPin.instructions.line2')}</li>
          <li>{t('newPin.instructions.line3', LIMITS.nextTokenDigits)}</li>
          <li>{t('newPin.instructions.line4')}</li>
        </ol>
      </section>
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
        {NEW_PIN_FIELDS.map((field) => {
          const label = t(FIELD_TEXT[field].label);
          const toggle = t(FIELD_TEXT[field].toggle);
          const kind = errors[field];
          const digits = field === 'nextPasscode' ? LIMITS.nextTokenDigits : LIMITS.pinDigits;
          return (
            <PasswordField
              key={field}
              id={field}
              name={field}
              label={label}
              fallbackName={nameOr(label, FIELD_TEXT[field].label)}
              value={values[field]}
              onValueChange={set(field)}
              error={kind ? t(ERROR_TEXT[kind], digits) || ERROR_TEXT[kind] : undefined}
              inputRef={(element) => {
                inputs.current[field] = element;
              }}
              toggleLabel={toggle}
              toggleFallbackName={nameOr(toggle, FIELD_TEXT[field].toggle)}
              inputMode="numeric"
              autoComplete={field === 'nextPasscode' ? 'one-time-code' : 'off'}
              maxLength={digits}
              required
              readOnly={busy}
            />
          );
        })}
        <FormActions
          submitText={submitText}
          submitKey="newPin.submit"
          cancelText={cancelText}
          busy={busy}
          onCancel={() => {
            if (!busyRef.current) leave();
          }}
        />
      </form>
      <PortalSessionWarning />
    </div>
  );
}
