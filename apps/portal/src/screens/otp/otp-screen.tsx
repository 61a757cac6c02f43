import { LIMITS, type LoginDescriptor } from '@cardportal/domain';
import {
  type ClipboardEvent,
  type FocusEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useRef,
  useState,
} from 'react';
import { statusOf } from '../../api/client.ts';
import { heraclesLogin } from '../../api/heracles-login.ts';
import { logErrorStatement } from '../../api/log-error.ts';
import { requestOneTimePin } from '../../api/one-time-pins.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr } from '../../i18n/i18n.ts';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { browser } from '../../lib/browser.ts';
import { safeRedirect } from '../../lib/redirect.ts';
import { LOGIN_DESCRIPTOR_KEY, sessionGet, USER_ID_KEY } from '../../lib/storage.ts';
import { navigate } from '../../router/router.tsx';
import { EMPTY_CODE, enterDigits, isComplete, OTP_BOX_IDS, OTP_LENGTH, typedInto } from './otp-code.ts';

/** ldapId, loginType and b2BAlias of the sign-in's login descriptor, when this tab has it. */
function descriptorFields(): Record<string, string> {
  const raw = sessionGet(LOGIN_DESCRIPTOR_KEY);
  if (!raw) return {};
  try {
    const descriptor = JSON.parse(raw) as Partial<LoginDescriptor>;
    const fields: Record<string, string> = {};
    for (const key of ['ldapId', 'loginType', 'b2BAlias'] as const) {
      const value = descriptor[key];
      if (typeof value === 'string' && value) fields[key] = value;
    }
    return fields;
  } catch {
    return {};
  }
}

/**
 * One-time passcode (spec §2, §4, §5): six single-digit boxes, Sign in, and Resend. A wrong code comes
 * back as this screen's URL with `error` (a full page load), which marks every box invalid.
 */
export default function OtpScreen() {
  const portal = usePortal();
  const { t, appName, cobrandName, locale } = portal;
  const [query] = useState(() => new URLSearchParams(window.location.search));
  const errorParam = query.has('error');
  const [delivery, setDelivery] = useState(() => query.get('delivery') ?? '');
  const [code, setCode] = useState<string[]>(() => [...EMPTY_CODE]);
  /** Errors show once focus left the group or on submit; at once after a wrong code. */
  const [touched, setTouched] = useState(errorParam);
  /** The `error` parameter's invalid-code state lasts until the code is edited or a new one is sent. */
  const [errorParamActive, setErrorParamActive] = useState(errorParam);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const [resentTo, setResentTo] = useState<string | null>(null);
  const busyRef = useRef(false);
  const resendingRef = useRef(false);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const abortRef = useRef<AbortController | null>(null);

  useDocumentTitle(t('common.pageTitle', t('otp.title'), appName));
  useEffect(() => () => abortRef.current?.abort(), []);

  const complete = isComplete(code);
  const errorKind = errorParamActive ? 'invalid' : complete ? null : 'required';
  const shownError = touched ? errorKind : null;
  const errorText =
    shownError === 'invalid'
      ? t('otp.error.invalid')
      : shownError === 'required'
        ? t('otp.error.required', OTP_LENGTH)
        : '';

  const focusBox = (index: number) => {
    const box = boxes.current[index];
    box?.focus();
    box?.select();
  };

  const apply = (index: number, raw: string) => {
    const result = enterDigits(code, index, raw);
    setCode(result.code);
    setErrorParamActive(false);
    if (result.focus !== null && result.focus !== index) focusBox(result.focus);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    const empty = (code[index] ?? '') === '';
    if ((event.key === 'Backspace' || event.key === 'Delete') && empty && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < OTP_LENGTH - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    apply(index, event.clipboardData.getData('text'));
  };

  const onGroupBlur = (event: FocusEvent<HTMLFieldSetElement>) => {
    const next = event.relatedTarget;
    if (!(next instanceof Node && event.currentTarget.contains(next))) setTouched(true);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current) return; // no double submit
    setTouched(true);
    if (errorParamActive || !complete) {
      const firstEmpty = code.indexOf('');
      focusBox(firstEmpty === -1 ? 0 : firstEmpty);
      return;
    }
    busyRef.current = true;
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const answer = await heraclesLogin(
        {
          username: sessionGet(USER_ID_KEY) ?? '',
          password: code.join(''),
          loginFormType: 'otp',
          cobrandHost: cobrandName,
          locale,
          extra: descriptorFields(),
        },
        controller.signal,
      );
      const url = safeRedirect(answer);
      if (url) {
        // the page stays busy while the browser leaves (a wrong code comes back with error=true)
        browser.assign(url);
        return;
      }
      void logErrorStatement('otp: login answered a redirect that is not ours');
    } catch (error) {
      if (controller.signal.aborted) return;
      // spec §4, §8: a failed submit is only logged
      void logErrorStatement(`otp: login failed (${statusOf(error)})`);
    }
    busyRef.current = false;
    setBusy(false);
  };

  const onResend = async () => {
    if (resendingRef.current || busyRef.current) return;
    resendingRef.current = true;
    setResending(true);
    setCode([...EMPTY_CODE]);
    setTouched(false);
    setErrorParamActive(false);
    setResentTo(null);
    try {
      const { emailAddress } = await requestOneTimePin(locale);
      const address = typeof emailAddress === 'string' ? emailAddress : '';
      if (address) setDelivery(address);
      setResentTo(address);
    } catch {
      // spec §4: a failed resend goes to the sign-in screen
      navigate(screenUrl(portal, 'signin'));
      return;
    }
    resendingRef.current = false;
    setResending(false);
  };

  const submitText = busy ? t('otp.submitting') : t('otp.submit');
  const resendText = t('otp.resend');
  const legend = t('otp.legend');

  return (
    <div className="cp-card">
      <ScreenHeading>{t('otp.heading')}</ScreenHeading>
      <div id="otp-hint">
        <p className="cp-text">
          {delivery ? t('otp.intro', OTP_LENGTH, delivery) : t('otp.introNoAddress', OTP_LENGTH)}
        </p>
        <p className="cp-text">{t('otp.expiry', LIMITS.otpExpiryMinutes)}</p>
      </div>
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <fieldset
          className={`cp-otp${shownError ? ' cp-otp--invalid' : ''}`}
          onBlur={onGroupBlur}
          aria-describedby="otp-hint"
        >
          <legend className="cp-otp__legend">{legend || 'otp.legend'}</legend>
          <div className="cp-otp__boxes">
            {OTP_BOX_IDS.map((id, index) => {
              const label = t('otp.digitLabel', index + 1, OTP_LENGTH);
              return (
                <span key={id} className="cp-otp__box">
                  <label className="cp-visually-hidden" htmlFor={id}>
                    {label}
                  </label>
                  <input
                    id={id}
                    ref={(element) => {
                      boxes.current[index] = element;
                    }}
                    className="cp-otp__input"
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]*"
                    autoComplete={index === 0 ? 'one-time-code' : 'off'}
                    value={code[index] ?? ''}
                    onChange={(event) => apply(index, typedInto(code[index] ?? '', event.target.value))}
                    onKeyDown={onKeyDown(index)}
                    onPaste={onPaste(index)}
                    onFocus={(event) => event.target.select()}
                    readOnly={busy}
                    required
                    aria-label={nameOr(label, 'otp.digitLabel')}
                    aria-invalid={
                      shownError === 'invalid' || (shownError !== null && !code[index]) || undefined
                    }
                    aria-describedby={shownError ? 'otp-error' : undefined}
                  />
                </span>
              );
            })}
          </div>
          <div
            id="otp-error"
            role="alert"
            className={errorText ? 'cp-otp__error cp-field__error' : 'cp-otp__error'}
          >
            {errorText}
          </div>
        </fieldset>
        <button
          id="otp-submit"
          type="submit"
          className="cp-button cp-button--primary cp-button--block"
          disabled={busy}
          aria-label={nameOr(submitText, 'otp.submit')}
        >
          {submitText}
        </button>
      </form>
      <p className="cp-form__aside">
        <button
          id="otp-resend"
          type="button"
          className="cp-link-button"
          disabled={resending || busy}
          aria-label={nameOr(resendText, 'otp.resend')}
          onClick={() => void onResend()}
        >
          {resendText}
        </button>
      </p>
      <p id="otp-status" role="status" className="cp-status">
        {resentTo !== null ? t('otp.resent', resentTo || delivery) : ''}
      </p>
    </div>
  );
}
