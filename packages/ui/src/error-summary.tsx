import type { MouseEvent, ReactNode, Ref } from 'react';

export interface ErrorSummaryItem {
  /** id of the field the entry links to */
  fieldId: string;
  text: string;
}

export interface ErrorSummaryProps {
  id: string;
  /** Header line, e.g. "Login failed". Nothing is rendered inside the region while it is empty. */
  heading?: string | undefined;
  /** Heading level inside the region; the screen's own h1 comes first. */
  headingLevel?: 2 | 3;
  message?: string | undefined;
  /** Entries that each link to (and focus) their field. */
  items?: readonly ErrorSummaryItem[];
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}

function focusField(event: MouseEvent<HTMLAnchorElement>, fieldId: string) {
  const field = document.getElementById(fieldId);
  if (!field) return;
  event.preventDefault();
  field.focus();
}

/**
 * Error region announced by screen readers (role="alert"). The region itself always exists so that
 * inserting text into it is announced; it is focusable (tabIndex -1) so a screen can move focus to it.
 */
export function ErrorSummary({
  id,
  heading,
  headingLevel = 2,
  message,
  items = [],
  children,
  ref,
}: ErrorSummaryProps) {
  const hasContent = Boolean(heading || message || items.length > 0 || children);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div
      id={id}
      ref={ref}
      role="alert"
      tabIndex={-1}
      className={hasContent ? 'cp-error-summary cp-error-summary--shown' : 'cp-error-summary'}
    >
      {heading ? <Heading className="cp-error-summary__heading">{heading}</Heading> : null}
      {message ? <p className="cp-error-summary__message">{message}</p> : null}
      {items.length > 0 ? (
        <ul className="cp-error-summary__list">
          {items.map((item) => (
            <li key={item.fieldId}>
              <a href={`#${item.fieldId}`} onClick={(event) => focusField(event, item.fieldId)}>
                {item.text}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {children}
    </div>
  );
}
