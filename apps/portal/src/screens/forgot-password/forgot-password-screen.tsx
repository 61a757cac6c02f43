import { LIMITS, SECURITY_ANSWER_MAX_LENGTH } from '@cardportal/domain';
import { PasswordField, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { requestTemporaryPassword } from '../../api/forgot-password.ts';
import { getSecurityQuestion, type SecurityQuestion } from '../../api/security-question.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { FormActions } from '../../layout/form-actions.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { navigate } from '../../router/router.tsx';
import { type ForgotStep, forgotErrorKey } from './forgot-password-flow.ts';

const STEP_HEADINGS: Record<ForgotStep, TKey> = {
  userId: 'forgotPassword.step.userId',
  question: 'forgotPassword.step.question',
  confirmation: 'forgotPassword.step.confirmation',
};

type FieldId = 'userId' | 'securityAnswer';
interface FieldError {
  field: FieldId;
  text: string;
}

/**
 * Forgot password (spec §2, §4): a three-step wizard in one route — user ID, security question,
 * e-mail confirmation. Each step's heading takes focus when the step changes; an error keeps the
 * step and shows next to its field (which takes focus). Cancel returns to the co-brand's sign-in.
 */
export default function ForgotPasswordScreen() {
  const portal = usePortal();
  const { t, appName, cobrandName, locale } = portal;
  const [step, setStep] = useState<ForgotStep>('userId');
  const [userId, setUserId] = useState('');
  const [question, setQuestion] = useState<SecurityQuestion | null>(null);
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<FieldError | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const stepHeadingRef = useRef<HTMLHeadingElement>(null);
  const userIdRef = useRef<HTMLInputElement>(null);
  const answerRef = useRef<HTMLInputElement>(null);
  const [focusTarget, setFocusTarget] = useState<{ to: 'heading' | FieldId; n: number } | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useDocumentTitle(t('common.pageTitle', t('forgotPassword.title'), appName));
  useEffect(() => () => abortRef.current?.abort(), []);

  useEffect(() => {
    if (!focusTarget) return;
    const element =
      focusTarget.to === 'heading'
        ? stepHeadingRef.current
        : focusTarget.to === 'userId'
          ? userIdRef.current
          : answerRef.current;
    element?.focus();
  }, [focusTarget]);

  const focus = (to: 'heading' | FieldId) => setFocusTarget((prev) => ({ to, n: (prev?.n ?? 0) + 1 }));

  const fail = (field: FieldId, text: string) => {
    setError({ field, text });
    focus(field);
  };

  /** Runs one call with the buttons disabled; no double submit. */
  const run = async (call: (signal: AbortSignal) => Promise<void>, field: FieldId, next: () => void) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      await call(controller.signal);
      if (controller.signal.aborted) return;
      next();
    } catch (cause) {
      if (controller.signal.aborted) return;
      fail(field, t(forgotErrorKey(cause)));
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const userIdLabel = t('forgotPassword.userId.label');
  const answerLabel = question?.questionText || t('forgotPassword.answer.label');

  const onSubmitUserId = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = userId.trim();
    setError(null);
    if (!id) {
      fail('userId', t('validation.isRequired', userIdLabel || 'forgotPassword.userId.label'));
      return;
    }
    void run(
      async (signal) => {
        const found = await getSecurityQuestion(id, locale, signal);
        setQuestion({
          questionId: String(found.questionId ?? ''),
          questionText: typeof found.questionText === 'string' ? found.questionText : '',
        });
      },
      'userId',
      () => {
        setAnswer('');
        setStep('question');
        focus('heading');
      },
    );
  };

  const onSubmitAnswer = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!question) return;
    setError(null);
    if (!answer.trim()) {
      const answerName = t('forgotPassword.answer.label') || 'forgotPassword.answer.label';
      fail('securityAnswer', t('validation.isRequired', answerName));
      return;
    }
    void run(
      (signal) =>
        requestTemporaryPassword(
          { userId: userId.trim(), locale, cobrandName, question, answer: answer.trim() },
          signal,
        ),
      'securityAnswer',
      () => {
        setAnswer('');
        setStep('confirmation');
        focus('heading');
      },
    );
  };

  const toSignin = () => navigate(screenUrl(portal, 'signin'));
  const cancelText = t('common.cancel');
  const stepHeading = t(STEP_HEADINGS[step]);
  const continueText = t('forgotPassword.continue');
  const submitText = t('forgotPassword.submit');
  const returnText = t('forgotPassword.returnToLogin');
  const toggleText = t('forgotPassword.answer.toggle');

  return (
    <div className="cp-card">
      <ScreenHeading>{t('forgotPassword.heading')}</ScreenHeading>
      <h2 ref={stepHeadingRef} tabIndex={-1} className="cp-subheading">
        {stepHeading || STEP_HEADINGS[step]}
      </h2>
      {step === 'userId' ? (
        <form className="cp-form" method="post" noValidate onSubmit={onSubmitUserId} aria-busy={busy}>
          <TextField
            id="userId"
            name="userId"
            label={userIdLabel}
            fallbackName={nameOr(userIdLabel, 'forgotPassword.userId.label')}
            value={userId}
            onValueChange={setUserId}
            error={error?.field === 'userId' ? error.text : undefined}
            inputRef={userIdRef}
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={LIMITS.userIdMaxLength}
            required
            readOnly={busy}
          />
          <FormActions
            submitText={continueText}
            submitKey="forgotPassword.continue"
            cancelText={cancelText}
            busy={busy}
            onCancel={toSignin}
          />
        </form>
      ) : null}
      {step === 'question' ? (
        <form className="cp-form" method="post" noValidate onSubmit={onSubmitAnswer} aria-busy={busy}>
          <PasswordField
            id="securityAnswer"
            name="securityAnswer"
            label={answerLabel}
            fallbackName={nameOr(answerLabel, 'forgotPassword.answer.label')}
            value={answer}
            onValueChange={setAnswer}
            error={error?.field === 'securityAnswer' ? error.text : undefined}
            inputRef={answerRef}
            toggleLabel={toggleText}
            toggleFallbackName={nameOr(toggleText, 'forgotPassword.answer.toggle')}
            autoComplete="off"
            maxLength={SECURITY_ANSWER_MAX_LENGTH}
            required
            readOnly={busy}
          />
          <FormActions
            submitText={submitText}
            submitKey="forgotPassword.submit"
            cancelText={cancelText}
            busy={busy}
            onCancel={toSignin}
          />
        </form>
      ) : null}
      {step === 'confirmation' ? (
        <>
          <p className="cp-text">{t('forgotPassword.emailSent')}</p>
          <button
            id="return-to-login"
            type="button"
            className="cp-button cp-button--primary"
            aria-label={nameOr(returnText, 'forgotPassword.returnToLogin')}
            onClick={toSignin}
          >
            {returnText}
          </button>
        </>
      ) : null}
      <p className="cp-note">{t('forgotPassword.firstLoginNote')}</p>
    </div>
  );
}
