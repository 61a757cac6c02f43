import { useEffect, useId, useRef } from 'react';
import { useApp } from '../lib/app-context.tsx';

/**
 * A modal confirmation before a destructive action (seed 001 §8: "Confirmation prompts precede
 * destructive actions"). The native <dialog> traps focus and closes on Escape; focus starts on Cancel.
 */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  onConfirm,
  onCancel,
  idPrefix = 'confirm',
}: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Prefix of the buttons' ids (`{prefix}-ok`, `{prefix}-cancel`): unique when a page has several dialogs. */
  idPrefix?: string;
}) {
  const { t } = useApp();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="app-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-body`}>{body}</p>
      <div className="app-actions">
        <button
          type="button"
          className="app-button"
          id={`${idPrefix}-cancel`}
          ref={cancelRef}
          onClick={onCancel}
        >
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="app-button app-button--danger"
          id={`${idPrefix}-ok`}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
