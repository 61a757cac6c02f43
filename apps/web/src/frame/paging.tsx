import { checkPageJump } from '@cardportal/domain';
import { FieldError } from '@cardportal/ui';
import { type FormEvent, useState } from 'react';
import { useApp } from '../lib/app-context.tsx';

/**
 * The paging of a search result (seed 001 §5): previous / next, "Page x of y" and a page jump checked
 * by the shared rule (a whole number from 1 to the page count). Shared by every paged search screen;
 * `idPrefix` keeps the element ids of each screen (`{prefix}-page`, `{prefix}-jump`).
 */
export function Paging({
  idPrefix,
  page,
  pages,
  onGo,
}: {
  idPrefix: string;
  page: number;
  pages: number;
  onGo: (page: number) => void;
}) {
  const { t, problemText, languageTag } = useApp();
  const [jump, setJump] = useState('');
  const [jumpProblem, setJumpProblem] = useState<string | undefined>();
  const number = new Intl.NumberFormat(languageTag);

  const submitJump = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPageJump(jump, pages);
    setJumpProblem(checked.problem);
    if (checked.page !== undefined) onGo(checked.page);
  };

  return (
    <nav className="app-paging" aria-label={t('app.people.search.paging')}>
      <button type="button" className="app-button" disabled={page <= 1} onClick={() => onGo(page - 1)}>
        {t('app.people.search.previous')}
      </button>
      <span id={`${idPrefix}-page`}>
        {t('app.people.search.page', number.format(page), number.format(pages))}
      </span>
      <button type="button" className="app-button" disabled={page >= pages} onClick={() => onGo(page + 1)}>
        {t('app.people.search.next')}
      </button>
      <form onSubmit={submitJump} noValidate className="app-jump">
        <label htmlFor={`${idPrefix}-jump`}>{t('app.people.search.jump')}</label>
        <input
          id={`${idPrefix}-jump`}
          inputMode="numeric"
          size={4}
          value={jump}
          onChange={(e) => setJump(e.target.value)}
          aria-invalid={jumpProblem ? true : undefined}
          aria-describedby={jumpProblem ? `${idPrefix}-jump-error` : undefined}
        />
        <button type="submit" className="app-button">
          {t('app.people.search.jumpSubmit')}
        </button>
        <FieldError
          id={`${idPrefix}-jump-error`}
          message={jumpProblem ? problemText(jumpProblem) : undefined}
        />
      </form>
    </nav>
  );
}
