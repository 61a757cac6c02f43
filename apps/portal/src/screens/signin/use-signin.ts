import { LIMITS, USER_ID_COOKIE } from '@cardportal/domain';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { browser } from '../../lib/browser.ts';
import { readCookie } from '../../lib/cookies.ts';
import { clearSessionKeepingCobrand, sessionSet, USER_ID_KEY } from '../../lib/storage.ts';
import { type FieldErrors, runSignin, type SigninFailure, validateSignin } from './signin-flow.ts';

export interface UseSignin {
  userId: string;
  password: string;
  setUserId: (value: string) => void;
  setPassword: (value: string) => void;
  fieldErrors: FieldErrors;
  failure: SigninFailure | null;
  busy: boolean;
  submit: () => Promise<void>;
  userIdRef: RefObject<HTMLInputElement | null>;
  passwordRef: RefObject<HTMLInputElement | null>;
  errorRef: RefObject<HTMLDivElement | null>;
}

/** State and submit sequence of the sign-in form (spec §4). */
export function useSignin(options: {
  cobrandHost: string;
  locale: string;
  initialFailure: SigninFailure | null;
}): UseSignin {
  const { cobrandHost, locale, initialFailure } = options;
  const [userId, setUserId] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<SigninFailure | null>(options.initialFailure);
  const [busy, setBusy] = useState(false);
  const [focusError, setFocusError] = useState(0);
  const busyRef = useRef(false);
  const userIdRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  // A server-rendered form can be typed into before the script hydrates it: keep what was typed.
  useEffect(() => {
    const typedUserId = userIdRef.current?.value;
    const typedPassword = passwordRef.current?.value;
    if (typedUserId) setUserId((current) => current || typedUserId);
    if (typedPassword) setPassword((current) => current || typedPassword);
    // Spec §3 user_id: the ID of this browser's last successful sign-in is offered again (not after a
    // failed sign-in, whose form starts empty). After hydration, so the server's page stays the same.
    const remembered = readCookie(USER_ID_COOKIE);
    if (!typedUserId && !initialFailure && remembered && remembered.length <= LIMITS.userIdMaxLength) {
      setUserId((current) => current || remembered);
    }
  }, [initialFailure]);

  useEffect(() => {
    if (focusError > 0) errorRef.current?.focus();
  }, [focusError]);

  const submit = useCallback(async () => {
    if (busyRef.current) return; // no double submit
    clearSessionKeepingCobrand();
    setFailure(null);
    const errors = validateSignin({ userId, password });
    setFieldErrors(errors);
    if (errors.userId) {
      userIdRef.current?.focus();
      return;
    }
    if (errors.password) {
      passwordRef.current?.focus();
      return;
    }

    busyRef.current = true;
    setBusy(true);
    sessionSet(USER_ID_KEY, userId.trim());
    const controller = new AbortController();
    abortRef.current = controller;
    const outcome = await runSignin(
      { userId, password, cobrandHost, locale },
      window.location.origin,
      controller.signal,
    );
    if (controller.signal.aborted) return;
    if (outcome.ok) {
      // the form stays busy while the browser leaves
      browser.assign(outcome.url);
      return;
    }
    setUserId('');
    setPassword('');
    setFailure(outcome.failure);
    busyRef.current = false;
    setBusy(false);
    setFocusError((n) => n + 1);
  }, [userId, password, cobrandHost, locale]);

  return {
    userId,
    password,
    setUserId,
    setPassword,
    fieldErrors,
    failure,
    busy,
    submit,
    userIdRef,
    passwordRef,
    errorRef,
  };
}
