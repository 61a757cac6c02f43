import { useEffect, useId, useRef } from 'react';
import { useApp } from '../lib/app-context.tsx';
import { Dialog } from './aria/dialog.tsx';

/**
 * A modal confirmation before a destructive action (seed 001 §8: "Confirmation prompts precede
 * destructive actions"): an `alertdialog` on the kernel's react-aria Dialog. Focus starts on Cancel
 * (the safe choice), stays inside, Escape cancels, and focus returns to the button that asked.
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
  const bodyId = `${useId()}-body`;
  const cancel = useRef<HTMLButtonElement>(null);
  // The safe choice first (WAI-ARIA APG alertdialog): after react-aria has moved focus into the dialog.
  useEffect(() => {
    if (open) cancel.current?.focus();
  }, [open]);
  return (
    <Dialog open={open} onClose={onCancel} title={title} describedBy={bodyId} role="alertdialog">
      <p id={bodyId}>{body}</p>
      <div className="app-actions">
        <button
          type="button"
          className="app-button"
          id={`${idPrefix}-cancel`}
          ref={cancel}
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
    </Dialog>
  );
}
