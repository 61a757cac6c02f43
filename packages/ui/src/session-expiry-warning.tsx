import { LIMITS } from '@cardportal/domain';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';

/** `GET /sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json` (docs/api.md). */
export interface SessionWarningContent {
  sessionExpireWarningBoxTitle: string;
  /** Contains `{0}`: the seconds left. */
  generalSessionAboutToExpireMessage: string;
  sessionExpireContinueButtonLabel: string;
  sessionExpireLogoutButtonLabel: string;
  /** Idle time before the warning opens (the server's SESSION_WARNING_MS). */
  warningAfterMs: number;
  countdownSeconds: number;
}

export type SessionWarningTexts = Pick<
  SessionWarningContent,
  | 'sessionExpireWarningBoxTitle'
  | 'generalSessionAboutToExpireMessage'
  | 'sessionExpireContinueButtonLabel'
  | 'sessionExpireLogoutButtonLabel'
>;

export interface SessionExpiryWarningProps {
  /** Fetches the warning's content; a failure (or a missing field) falls back to `fallback` and the spec defaults. */
  loadContent: (signal: AbortSignal) => Promise<Partial<SessionWarningContent>>;
  /** Renews the session (pingPortal.json); a rejection logs the user out. */
  ping: () => Promise<unknown>;
  /** Ends the session and leaves the page. Called once: at zero, on the Logout button, or when the ping fails. */
  onLogout: () => void;
  /** Texts of the application's own bundle, used where the server's content has none. */
  fallback: SessionWarningTexts;
  /** Prefix of the element ids (title, message, buttons). */
  idPrefix?: string;
}

interface Resolved extends SessionWarningTexts {
  warningAfterMs: number;
  countdownSeconds: number;
}

const TICK_MS = 250;
/** The countdown is announced every this many seconds, and every second for the last ones. */
const ANNOUNCE_EVERY = 10;

function textOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

function numberIn(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
    ? value
    : fallback;
}

export function resolveSessionWarning(
  content: Partial<SessionWarningContent>,
  fallback: SessionWarningTexts,
): Resolved {
  return {
    sessionExpireWarningBoxTitle: textOr(
      content.sessionExpireWarningBoxTitle,
      fallback.sessionExpireWarningBoxTitle,
    ),
    generalSessionAboutToExpireMessage: textOr(
      content.generalSessionAboutToExpireMessage,
      fallback.generalSessionAboutToExpireMessage,
    ),
    sessionExpireContinueButtonLabel: textOr(
      content.sessionExpireContinueButtonLabel,
      fallback.sessionExpireContinueButtonLabel,
    ),
    sessionExpireLogoutButtonLabel: textOr(
      content.sessionExpireLogoutButtonLabel,
      fallback.sessionExpireLogoutButtonLabel,
    ),
    warningAfterMs: numberIn(content.warningAfterMs, 0, 86_400_000, LIMITS.sessionWarningMs),
    countdownSeconds: Math.round(numberIn(content.countdownSeconds, 1, 3600, LIMITS.sessionCountdownSeconds)),
  };
}

/**
 * The seconds value the polite live region carries: every tenth second and each of the last ten,
 * never the opening value (the alertdialog's description is read when it opens), so a screen reader
 * is not talked over every second. null = nothing to announce yet.
 */
export function announcedSeconds(secondsLeft: number, countdownSeconds: number): number | null {
  const value =
    secondsLeft <= ANNOUNCE_EVERY ? secondsLeft : Math.ceil(secondsLeft / ANNOUNCE_EVERY) * ANNOUNCE_EVERY;
  return value >= countdownSeconds ? null : value;
}

function fill(template: string, seconds: number): string {
  return template.replace(/\{0\}/g, String(seconds));
}

/**
 * Session-expiry warning (portal spec §2, §4). The idle timer starts when the component mounts and
 * restarts on Continue; after `warningAfterMs` a modal alertdialog opens with a countdown from
 * `countdownSeconds`. At zero the user is logged out. Continue (or Esc) pings the session, closes the
 * dialog and restarts the timer; a failed ping logs out. Tab/Shift+Tab cycle between the two buttons
 * and focus returns to where it was when the dialog closes.
 */
export function SessionExpiryWarning({
  loadContent,
  ping,
  onLogout,
  fallback,
  idPrefix = 'session-warning',
}: SessionExpiryWarningProps) {
  const [config, setConfig] = useState<Resolved | null>(null);
  const [cycle, setCycle] = useState(0);
  /** Time at which the countdown reaches zero; null while the dialog is closed. */
  const [deadline, setDeadline] = useState<number | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [busy, setBusy] = useState(false);
  const mountedAt = useRef(Date.now());
  const busyRef = useRef(false);
  const endedRef = useRef(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  const continueRef = useRef<HTMLButtonElement>(null);
  const logoutRef = useRef<HTMLButtonElement>(null);
  const latest = useRef({ loadContent, ping, onLogout, fallback });
  latest.current = { loadContent, ping, onLogout, fallback };
  const uid = useId();
  const titleId = `${idPrefix}-title-${uid}`;
  const messageId = `${idPrefix}-message-${uid}`;
  const open = deadline !== null;

  // The content (texts and timings), once per mount.
  useEffect(() => {
    const controller = new AbortController();
    latest.current
      .loadContent(controller.signal)
      .catch(() => ({}))
      .then((content) => {
        if (!controller.signal.aborted) setConfig(resolveSessionWarning(content, latest.current.fallback));
      });
    return () => controller.abort();
  }, []);

  const end = useCallback(() => {
    if (endedRef.current) return;
    endedRef.current = true;
    busyRef.current = true;
    setBusy(true);
    latest.current.onLogout();
  }, []);

  // The idle timer: from mount for the first cycle, from Continue afterwards.
  useEffect(() => {
    if (!config || open || endedRef.current) return;
    const elapsed = cycle === 0 ? Date.now() - mountedAt.current : 0;
    const timer = setTimeout(
      () => {
        setSecondsLeft(config.countdownSeconds);
        setDeadline(Date.now() + config.countdownSeconds * 1000);
      },
      Math.max(0, config.warningAfterMs - elapsed),
    );
    return () => clearTimeout(timer);
  }, [config, cycle, open]);

  // The countdown, from a deadline (robust against throttled timers in background tabs).
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) {
        clearInterval(timer);
        end();
      }
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [deadline, end]);

  // Focus: into the dialog when it opens, kept inside while open, back where it was when it closes.
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    continueRef.current?.focus();
    const onFocusIn = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (dialog && event.target instanceof Node && !dialog.contains(event.target)) {
        continueRef.current?.focus();
      }
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);

  const onContinue = useCallback(async () => {
    if (busyRef.current || endedRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await latest.current.ping();
    } catch {
      end();
      return;
    }
    if (endedRef.current) return;
    busyRef.current = false;
    setBusy(false);
    setDeadline(null);
    setCycle((n) => n + 1);
  }, [end]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      void onContinue();
      return;
    }
    if (event.key !== 'Tab') return;
    // Two buttons: Tab and Shift+Tab both move to the other one (focus stays in the dialog).
    event.preventDefault();
    const buttons = [continueRef.current, logoutRef.current];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement | null);
    const next = index === -1 ? 0 : (index + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length;
    buttons[next]?.focus();
  };

  if (!open || !config) return null;
  const announced = announcedSeconds(secondsLeft, config.countdownSeconds);
  return (
    <div className="cp-modal">
      <div
        ref={dialogRef}
        className="cp-modal__dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={messageId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="cp-modal__title">
          {config.sessionExpireWarningBoxTitle}
        </h2>
        <p id={messageId} className="cp-modal__message">
          {fill(config.generalSessionAboutToExpireMessage, secondsLeft)}
        </p>
        <p className="cp-visually-hidden" aria-live="polite" aria-atomic="true">
          {announced === null ? '' : fill(config.generalSessionAboutToExpireMessage, announced)}
        </p>
        <div className="cp-modal__actions">
          <button
            ref={continueRef}
            id={`${idPrefix}-continue`}
            type="button"
            className="cp-button cp-button--primary"
            disabled={busy}
            onClick={() => void onContinue()}
          >
            {config.sessionExpireContinueButtonLabel}
          </button>
          <button
            ref={logoutRef}
            id={`${idPrefix}-logout`}
            type="button"
            className="cp-button cp-button--secondary"
            disabled={busy}
            onClick={end}
          >
            {config.sessionExpireLogoutButtonLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
