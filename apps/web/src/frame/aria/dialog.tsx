import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

export interface DialogProps {
  /** Shown while true. The dialog is controlled: the screen owns this state. */
  open: boolean;
  /** Escape, a click outside (when `dismissable`) or the screen's own Cancel button close it. */
  onClose: () => void;
  /** The dialog's heading (level 2); names the dialog. */
  title: string;
  /** id of the element that describes the dialog (its message), when there is one. */
  describedBy?: string | undefined;
  /** `alertdialog` for a confirmation that interrupts; `dialog` for a form. */
  role?: 'dialog' | 'alertdialog';
  /** A click on the backdrop closes it too (never for a confirmation). Escape always closes. */
  dismissable?: boolean;
  /** id of the dialog element. */
  id?: string | undefined;
  children: ReactNode;
}

/**
 * A modal dialog (react-aria-components Modal + Dialog): focus is trapped inside while it is open,
 * moves to the first element with `autoFocus` (else the dialog), Escape closes it, the page behind is
 * hidden from assistive technology, and focus returns to the element that opened it on close.
 */
export function Dialog({
  open,
  onClose,
  title,
  describedBy,
  role = 'dialog',
  dismissable = false,
  id,
  children,
}: DialogProps) {
  return (
    <ModalOverlay
      className="app-modal-overlay"
      isOpen={open}
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
      isDismissable={dismissable}
    >
      <Modal className="app-modal">
        <AriaDialog id={id} role={role} className="app-dialog" aria-describedby={describedBy}>
          <Heading slot="title" level={2} className="app-dialog__title">
            {title}
          </Heading>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
