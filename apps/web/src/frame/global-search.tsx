import { checkSearchCriteria } from '@cardportal/domain';
import { FieldError } from '@cardportal/ui';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useApp } from '../lib/app-context.tsx';

/** The header's search box: searches users; Enter opens the People search results. */
export function GlobalSearch() {
  const { t, problemText } = useApp();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkSearchCriteria(text);
    setProblem(found);
    if (found) return;
    navigate(`/people?${new URLSearchParams({ q: text.trim() })}`);
  };

  return (
    <search className="app-search">
      <form onSubmit={submit} noValidate>
        <label htmlFor="global-search" className="app-search__label">
          {t('app.search.label')}
        </label>
        <input
          id="global-search"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'global-search-error' : undefined}
          autoComplete="off"
        />
        <button type="submit" className="app-button app-button--on-primary">
          {t('app.search.submit')}
        </button>
        <FieldError id="global-search-error" message={problem ? problemText(problem) : undefined} />
      </form>
    </search>
  );
}
