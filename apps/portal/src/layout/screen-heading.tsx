import { type ReactNode, useEffect, useRef } from 'react';
import { hasNavigatedInApp } from '../router/router.tsx';

/**
 * The screen's one <h1>. After an in-app navigation it takes focus, so screen-reader and keyboard
 * users start at the new screen's heading (a full page load keeps the browser's default).
 */
export function ScreenHeading({ id, children }: { id?: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (hasNavigatedInApp()) ref.current?.focus();
  }, []);
  return (
    <h1 id={id} ref={ref} tabIndex={-1} className="cp-heading">
      {children}
    </h1>
  );
}

/** Sets document.title while the screen is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
