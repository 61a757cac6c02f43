import { type RefObject, useEffect, useRef } from 'react';

/**
 * A ref for an alert region (an ErrorSummary) that takes focus whenever a problem shows in it: a
 * refusal not tied to a field, where nothing else would move focus. `problem` is the message key
 * shown (or undefined); a retried request clears it first, so a repeated refusal moves focus again.
 */
export function useFocusOnProblem<E extends HTMLElement = HTMLDivElement>(
  problem: string | undefined,
): RefObject<E | null> {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (problem) ref.current?.focus();
  }, [problem]);
  return ref;
}
