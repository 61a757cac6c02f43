import { LIMITS } from '@cardportal/domain';
import { TextField } from '@cardportal/ui';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { statusOf } from '../../api/client.ts';
import { heraclesLogin } from '../../api/heracles-login.ts';
import { logErrorStatement } from '../../api/log-error.ts';
import { getRsaInformation } from '../../api/rsa-information.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { FormActions } from '../../layout/form-actions.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { browser } from '../../lib/browser.ts';
import { safeRedirect } from '../../lib/redirect.ts';
import { sessionGet, USER_ID_KEY } from '../../lib/storage.ts';
import { isSameOriginPath } from '../../lib/urls.ts';
import { logoutAndLeave } from '../../session/logout.ts';
import {
  FORWARDED_QUERY_FIELDS,
  gatewayErrorOf,
  INVALID_TOKEN_EC,
  isValidNextToken,
} from './next-token-flow.ts';

const errorKeyOf = (ec: string): TKey =>
  ec === INVALID_TOKEN_EC ? 'nextToken.error.invalid' : 'nextToken.error.generic';

/**
 * Next token (spec §2, §4, §5, §8): allowed only when the server says so (else logout); the 8-digit
 * code goes to the RSA info's forward endpoint; an answer with `ec=` keeps the user here with the
 * error (14008: invalid token), any other answer is where to go.
 */
export default function NextTokenScreen() {
  const portal = usePortal();
  const { t, appName } = portal;
  const [query] = useState(() => new URLSearchParams(window.location.search));
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [token, setToken] = useState('');
  const [errorKey, setErrorKey] = useState<TKey | null>(() => {
    const ec = query.get('ec');
    return ec ? errorKeyOf(ec) : null;
  });
  const [busy, setBusy] = useState(false);
  const [focusTick, setFocusTick] = useState(0);
  const busyRef = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const logoutUrl = screenUrl(portal, 'logout');

  useDocumentTitle(t('common.pageTitle', t('nextToken.title'), appName));
  useEffect(() => {
    if (focusTick > 0) inputRef.current?.focus();
  }, [focusTick]);

  const leave = useCallback(() => {
    busyRef.current = true;
    setBusy(true);
    void logoutAndLeave(logoutUrl);
  }, [logoutUrl]);

  useEffect(() => {
    const controller = new AbortController();
    getRsaInformation('nexttoken', controller.signal).then(
      (info) => {
        if (controller.signal.aborted) return;
        // the form posts only to a path of our own origin
        if (info?.shouldAccess !== true || !isSameOriginPath(info.forwardFormEndpoint)) leave();
        else setEndpoint(info.forwardFormEndpoint);
      },
      () => {
        if (!controller.signal.aborted) leave();
      },
    );
    return () => controller.abort();
  }, [leave]);

  const fail = (key: TKey) => {
    setToken('');
    setErrorKey(key);
    setFocusTick((n) => n + 1);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busyRef.current || !endpoint) return;
    const value = token.trim();
    if (!isValidNextToken(value)) {
      setErrorKey('nextToken.error.invalid');
      setFocusTick((n) => n + 1);
      return;
    }
    setErrorKey(null);
    busyRef.current = true;
    setBusy(true);
    const extra: Record<string, string> = {};
    for (const field of FORWARDED_QUERY_FIELDS) extra[field] = query.get(field) ?? '';
    try {
      const answer = await heraclesLogin(
        {
          username: sessionGet(USER_ID_KEY) ?? '',
          password: value,
          loginFormType: 'next-token',
          extra,
        },
        undefined,
        endpoint,
      );
      const ec = gatewayErrorOf(answer);
      if (ec !== null) {
        fail(errorKeyOf(ec));
      } else {
        const target = safeRedirect(answer);
        if (target) {
          browser.assign(target);
          return;
        }
        void logErrorStatement('next-token: login answered a redirect that is not ours');
        fail('nextToken.error.generic');
      }
    } catch (error) {
      const status = statusOf(error);
      // no session (any more) for this stage: nothing to retry here
      if (status === 401 || status === 403) {
        leave();
        return;
      }
      void logErrorStatement(`next-token: login failed (${status})`);
      fail('nextToken.error.generic');
    }
    busyRef.current = false;
    setBusy(false);
  };

  if (!endpoint) {
    return (
      <div className="cp-card" aria-busy="true">
        <ScreenHeading>{t('nextToken.heading')}</ScreenHeading>
        <p className="cp-loading" role="status">
          {t('common.loading')}
        </p>
      </div>
    );
  }

  const label = t('nextToken.label');
  const submitText = t('nextToken.submit');
  const cancelText = t('common.cancel');

  return (
    <div className="cp-card">
      <ScreenHeading>{t('nextToken.heading')}</ScreenHeading>
      <p className="cp-text">{t('nextToken.intro', LIMITS.nextTokenDigits)}</p>
      <form className="cp-form" method="post" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id="nextToken"
          name="nextToken"
          label={label}
          fallbackName={nameOr(label, 'nextToken.label')}
          value={token}
          onValueChange={setToken}
          error={errorKey ? t(errorKey, LIMITS.nextTokenDigits) || errorKey : undefined}
          inputRef={inputRef}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={LIMITS.nextTokenDigits}
          required
          readOnly={busy}
        />
        <FormActions
          submitText={submitText}
          submitKey="nextToken.submit"
          cancelText={cancelText}
          busy={busy}
          onCancel={() => {
            if (!busyRef.current) leave();
          }}
        />
      </form>
    </div>
  );
}
