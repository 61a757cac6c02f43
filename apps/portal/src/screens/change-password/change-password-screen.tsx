import { LIMITS } from '@cardportal/domain';
import { ErrorSummary, type ErrorSummaryItem, PasswordField } from '@cardportal/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { changePassword } from '../../api/change-password.ts';
import { getChangePasswordServiceUrls } from '../../api/change-password-service-urls.ts';
import { heraclesLogin } from '../../api/heracles-login.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { FormActions } from '../../layout/form-actions.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { browser } from '../../lib/browser.ts';
import { safeRedirect } from '../../lib/redirect.ts';
import { sessionGet, USER_ID_KEY } from '../../lib/storage.ts';
import { logoutAndLeave } from '../../session/logout.ts';
import { PortalSessionWarning } from '../../session/session-warning.tsx';
import {
  CHANGE_PASSWORD_FIELDS,
  type ChangePasswordError,
  type ChangePasswordErrors,
  type ChangePasswordField,
  type ChangePasswordValues,
  errorsFromGatewayCode,
  errorsFromService,
  policyDetail,
  validateChangePassword,
} from './change-password-flow.ts';

const LABELS: Record<ChangePasswordField, TKey> = {
  old: 'changePassword.old.label',
  new1: 'changePassword.new1.label',
  new2: 'changePassword.new2.label',
};

const ERROR_TEXT: Record<ChangePasswordError, { header: TKey; message: TKey }> = {
  required: { header: 'changePassword.error.required.header', message: 'validation.aboveFieldRequired' },
  matchesUserId: {
    header: 'changePassword.error.matchesUserId.header',
    message: 'changePassword.error.matchesUserId.message',
  },
  mismatch: {
    header: 'changePassword.error.mismatch.header',
    message: 'changePassword.error.mismatch.message',
  },
  construction: {
    header: 'changePassword.error.construction.header',
    message: 'changePassword.error.construction.message',
  },
  common: {
    header: 'changePassword.error.common.header',
    message: 'changePassword.error.common.message',
  },
  wrongCurrent: {
    header: 'changePassword.error.wrongCurrent.header',
    message: 'changePassword.error.wrongCurrent.message',
  },
};

const TOGGLES: Record<ChangePasswordField, TKey> = {
  old: 'changePassword.old.toggle',
  new1: 'changePassword.new1.toggle',
  new2: 'changePassword.new2.toggle',
};

const AUTOCOMPLETE: Record<ChangePasswordField, string> = {
  old: 'current-password',
  new1: 'new-password',
  new2: 'new-password',
};

/**
 * Change password (spec §2, §4, §5, §8): three masked fields, a page-error summary whose entries link
 * to their fields, the `ec` gateway codes, and the `dest=MyProfile` variant of where success and
 * cancel lead. Success without dest signs in again with the new password.
 */
export default function ChangePasswordScreen() {
  const portal = usePortal();
  const { t, appName, cobrandName, locale } = portal;
  const [query] = useState(() => new URLSearchParams(window.location.search));
  const toProfile = query.get('dest') === 'MyProfile';
  const [values, setValues] = useState<ChangePasswordValues>({ old: '', new1: '', new2: '' });
  const [errors, setErrors] = useState<ChangePasswordErrors>(() => errorsFromGatewayCode(query.get('ec')));
  const [busy, setBusy] = useState(false);
  // The user's minimum length: the default until the server names its issuer's (in a password.policy answer).
  const [minLength, setMinLength] = useState<number>(LIMITS.passwordMinLength);
  const [focusSummary, setFocusSummary] = useState(0);
  const busyRef = useRef(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  useDocumentTitle(t('common.pageTitle', t('changePassword.title'), appName));
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(() => {
    if (focusSummary > 0) summaryRef.current?.focus();
  }, [focusSummary]);

  const logoutUrl = screenUrl(portal, 'logout');
  const leave = () => logoutAndLeave(logoutUrl);

  /** Spec §4: to the cancel-reset URL of the service URL record; logout when there is none. */
  const toCancelReset = async () => {
    try {
      const target = safeRedirect((await getChangePasswordServiceUrls()).cancelPasswordReset);
      if (target) {
        browser.assign(target);
        return;
      }
    } catch {
      // fall through
    }
    await leave();
  };

  const cancel = () => (toProfile ? toCancelReset() : leave());

  const show = (next: ChangePasswordErrors) => {
    setErrors(next);
    setFocusSummary((n) => n + 1);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current) return;
    const userId = sessionGet(USER_ID_KEY) ?? '';
    const found = validateChangePassword(values, userId, minLength);
    if (Object.keys(found).length > 0) {
      show(found);
      return;
    }
    setErrors({});
    busyRef.current = true;
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    const newCredential = values.new1.trim();
    try {
      await changePassword({ userId, oldCredential: values.old.trim(), newCredential }, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      const outcome = errorsFromService(error);
      if (outcome === 'cancel') {
        await cancel();
        return;
      }
      busyRef.current = false;
      setBusy(false);
      const policy = policyDetail(error);
      if (policy.minLength !== undefined) setMinLength(policy.minLength);
      show(outcome);
      return;
    }
    // success: the form stays busy while the browser leaves
    if (toProfile) {
      await toCancelReset();
      return;
    }
    try {
      const target = safeRedirect(
        await heraclesLogin({
          username: userId,
          password: newCredential,
          loginFormType: 'password',
          cobrandHost: cobrandName,
          locale,
        }),
      );
      if (target) {
        browser.assign(target);
        return;
      }
    } catch {
      // fall through: spec §4, a failed re-login goes to the logout URL
    }
    await leave();
  };

  const set = (field: ChangePasswordField) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  const label = (field: ChangePasswordField) => t(LABELS[field]) || LABELS[field];
  const items: ErrorSummaryItem[] = [];
  for (const field of CHANGE_PASSWORD_FIELDS) {
    const kind = errors[field];
    if (kind) {
      items.push({
        fieldId: field,
        text: t('changePassword.summary.item', label(field), t(ERROR_TEXT[kind].header)),
      });
    }
  }
  const firstKind = CHANGE_PASSWORD_FIELDS.map((field) => errors[field]).find((kind) => kind !== undefined);
  const summaryHeading =
    items.length > 1
      ? t('changePassword.summary.count', items.length)
      : firstKind
        ? t(ERROR_TEXT[firstKind].header)
        : undefined;
  const submitText = t('changePassword.submit');
  const cancelText = t('common.cancel');

  return (
    <div className="cp-card">
      <ScreenHeading>{t('changePassword.heading')}</ScreenHeading>
      <ErrorSummary
        id="change-password-errors"
        ref={summaryRef}
        heading={summaryHeading || undefined}
        items={items}
      />
      <div className="cp-rules">
        <p id="password-rules" className="cp-rules__heading">
          {t('changePassword.rules.heading')}
        </p>
        <ul aria-labelledby="password-rules">
          <li>{t('changePassword.rule.length', minLength, LIMITS.passwordMaxLength)}</li>
          <li>{t('changePassword.rule.characters')}</li>
          <li>{t('changePassword.rule.repeat')}</li>
          <li>{t('changePassword.rule.history', LIMITS.passwordHistory)}</li>
        </ul>
      </div>
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
        {CHANGE_PASSWORD_FIELDS.map((field) => {
          const text = t(LABELS[field]);
          const kind = errors[field];
          const toggleText = t(TOGGLES[field]);
          return (
            <PasswordField
              key={field}
              id={field}
              name={field}
              label={text}
              fallbackName={nameOr(text, LABELS[field])}
              value={values[field]}
              onValueChange={set(field)}
              error={kind ? t(ERROR_TEXT[kind].message) || ERROR_TEXT[kind].message : undefined}
              toggleLabel={toggleText}
              toggleFallbackName={nameOr(toggleText, TOGGLES[field])}
              autoComplete={AUTOCOMPLETE[field]}
              maxLength={LIMITS.credentialMaxLength}
              required
              readOnly={busy}
            />
          );
        })}
        <FormActions
          submitText={submitText}
          submitKey="changePassword.submit"
          cancelText={cancelText}
          busy={busy}
          onCancel={() => {
            if (busyRef.current) return;
            busyRef.current = true;
            setBusy(true);
            void cancel();
          }}
        />
      </form>
      <PortalSessionWarning />
    </div>
  );
}
