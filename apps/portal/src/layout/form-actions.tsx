import { nameOr, type TKey } from '../i18n/i18n.ts';

export interface FormActionsProps {
  /** The submit button's text and its bundle key (the accessible name when the text is missing). */
  submitText: string;
  submitKey: TKey;
  cancelText: string;
  /** Both buttons are disabled while a request runs. */
  busy: boolean;
  onCancel: () => void;
}

/** The Submit + Cancel row of the credential screens (ids `submit` and `cancel`). */
export function FormActions({ submitText, submitKey, cancelText, busy, onCancel }: FormActionsProps) {
  return (
    <div className="cp-actions">
      <button
        id="submit"
        type="submit"
        className="cp-button cp-button--primary"
        disabled={busy}
        aria-label={nameOr(submitText, submitKey)}
      >
        {submitText}
      </button>
      <button
        id="cancel"
        type="button"
        className="cp-button cp-button--secondary"
        disabled={busy}
        aria-label={nameOr(cancelText, 'common.cancel')}
        onClick={onCancel}
      >
        {cancelText}
      </button>
    </div>
  );
}
