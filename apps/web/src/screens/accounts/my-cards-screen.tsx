import type { MyCards } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useEffect, useState } from 'react';
import { getMyCards } from '../../api/accounts.ts';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { AccountStatusPill, codeOfError } from './shared.tsx';

/** A cardholder's own card accounts, masked, read-only. */
export function MyCardsScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.accounts.myCards.heading'));
  const [cards, setCards] = useState<MyCards | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    getMyCards(controller.signal).then(setCards, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(codeOfError(error));
    });
    return () => controller.abort();
  }, []);

  return (
    <>
      <h1>{t('app.accounts.myCards.heading')}</h1>
      <ErrorSummary id="my-cards-error" message={problem ? problemText(problem) : undefined} />
      <div aria-live="polite" className="app-live">
        {!cards && !problem ? <p>{t('common.loading')}</p> : null}
        {cards && cards.accounts.length === 0 ? (
          <p id="my-cards-none">{t('app.accounts.myCards.none')}</p>
        ) : null}
      </div>
      {cards && cards.accounts.length > 0 ? (
        <TableWrap captionId="my-cards-caption">
          <table className="app-table" id="my-cards">
            <caption id="my-cards-caption">{t('app.accounts.myCards.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('app.accounts.field.number')}</th>
                <th scope="col">{t('app.accounts.field.group')}</th>
                <th scope="col">{t('app.people.field.status')}</th>
              </tr>
            </thead>
            <tbody>
              {cards.accounts.map((a) => (
                <tr key={a.id}>
                  <th scope="row">{a.maskedNumber}</th>
                  <td>{a.group?.name ?? ''}</td>
                  <td>
                    <AccountStatusPill status={a.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
    </>
  );
}
