import { fireEvent, render, screen, within } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../lib/app-context.tsx';
import { makeContext } from '../test/support.tsx';
import { AriaProvider } from './aria/aria-provider.tsx';
import { DataTable, dataColumns, type SortingState } from './data-table.tsx';
import { KeysetPaging } from './paging.tsx';

interface Card {
  id: string;
  holder: string;
  limit: number;
}
const col = dataColumns<Card>();
const columns = col.columns([
  col.accessor('holder', { header: 'Cardholder', meta: { rowHeader: true }, enableHiding: false }),
  col.accessor('limit', { header: 'Limit', meta: { className: 'app-num' }, sortDescFirst: true }),
]);
const cards: Card[] = [
  { id: 'a', holder: 'Grace', limit: 500 },
  { id: 'b', holder: 'Ada', limit: 900 },
  { id: 'c', holder: 'Linus', limit: 100 },
];

const inApp = (children: ReactNode) =>
  render(
    <AppProvider context={makeContext()} languageTag="en-US">
      <MemoryRouter>
        <AriaProvider locale="en-US">{children}</AriaProvider>
      </MemoryRouter>
    </AppProvider>,
  );
const bodyText = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getByRole('rowheader').textContent);

function ServerSorted({ asked }: { asked: SortingState[] }) {
  const [sorting, setSorting] = useState<SortingState>([{ id: 'holder', desc: false }]);
  return (
    <DataTable
      id="cards"
      caption="Cards"
      columns={columns}
      data={cards}
      getRowId={(c) => c.id}
      sorting={sorting}
      onSortingChange={(next) => {
        asked.push(next);
        setSorting(next);
      }}
    />
  );
}

describe('DataTable', () => {
  it('sorts a complete list itself: header buttons, aria-sort on the column, row headers', () => {
    inApp(<DataTable id="cards" caption="Cards" columns={columns} data={cards} getRowId={(c) => c.id} />);
    const table = screen.getByRole('table', { name: 'Cards' });
    expect(table.id).toBe('cards');
    expect(within(table).getByRole('rowheader', { name: 'Grace' })).toBeDefined();
    expect(bodyText()).toEqual(['Grace', 'Ada', 'Linus']);
    const holder = within(table).getByRole('columnheader', { name: 'Cardholder' });
    expect(holder.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(holder).getByRole('button', { name: 'Cardholder' }));
    expect(holder.getAttribute('aria-sort')).toBe('ascending');
    expect(bodyText()).toEqual(['Ada', 'Grace', 'Linus']);
    fireEvent.click(within(holder).getByRole('button', { name: 'Cardholder' }));
    expect(holder.getAttribute('aria-sort')).toBe('descending');
    // Another column: this one starts with the highest amount; the first is no longer sorted.
    const limit = within(table).getByRole('columnheader', { name: 'Limit' });
    fireEvent.click(within(limit).getByRole('button', { name: 'Limit' }));
    expect(limit.getAttribute('aria-sort')).toBe('descending');
    expect(holder.getAttribute('aria-sort')).toBe('none');
    expect(bodyText()).toEqual(['Ada', 'Grace', 'Linus']);
    expect(within(limit).getByRole('button').closest('th')?.className).toBe('app-num');
  });

  it('asks the server for another order when sorting is the server’s (rows kept as they come)', () => {
    const asked: SortingState[] = [];
    inApp(<ServerSorted asked={asked} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cardholder' }));
    expect(asked).toEqual([[{ id: 'holder', desc: true }]]);
    expect(screen.getByRole('columnheader', { name: 'Cardholder' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(bodyText()).toEqual(['Grace', 'Ada', 'Linus']);
  });

  it('shows loading, then the empty text instead of a table, and a pager only with rows', () => {
    const view = inApp(
      <DataTable
        id="cards"
        caption="Cards"
        columns={columns}
        data={undefined}
        getRowId={(c) => c.id}
        loading
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByRole('table')).toBeNull();
    view.rerender(
      <AppProvider context={makeContext()} languageTag="en-US">
        <MemoryRouter>
          <DataTable
            id="cards"
            caption="Cards"
            columns={columns}
            data={[]}
            getRowId={(c) => c.id}
            empty="No cards."
            paging={{ idPrefix: 'cards', page: 1, pages: 1, onGo: () => undefined }}
          />
        </MemoryRouter>
      </AppProvider>,
    );
    expect(screen.getByText('No cards.').id).toBe('cards-empty');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('runs row actions from a menu named after the row', async () => {
    const suspend = vi.fn();
    inApp(
      <DataTable
        id="cards"
        caption="Cards"
        columns={columns}
        data={cards}
        getRowId={(c) => c.id}
        rowActions={{
          label: (c) => `Actions for ${c.holder}`,
          actions: (c) =>
            c.limit > 200 ? [{ id: 'suspend', label: 'Suspend', onAction: () => suspend(c.id) }] : [],
        }}
      />,
    );
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeDefined();
    // A row without actions has no button.
    expect(screen.queryByRole('button', { name: 'Actions for Linus' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ada' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Suspend' }));
    expect(suspend).toHaveBeenCalledWith('b');
  });
});

describe('KeysetPaging (lists paged by key)', () => {
  it('goes to the rows after the last key or before the first, and knows the ends', () => {
    const onNext = vi.fn();
    const onPrevious = vi.fn();
    const view = inApp(
      <KeysetPaging
        idPrefix="tx"
        previousKey={null}
        nextKey="k50"
        onPrevious={onPrevious}
        onNext={onNext}
        pageNumber={1}
      />,
    );
    expect(screen.getByText('Page 1').id).toBe('tx-page');
    expect((document.getElementById('tx-previous') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onNext).toHaveBeenCalledWith('k50');
    view.rerender(
      <AppProvider context={makeContext()} languageTag="en-US">
        <KeysetPaging
          idPrefix="tx"
          previousKey="k51"
          nextKey={null}
          onPrevious={onPrevious}
          onNext={onNext}
        />
      </AppProvider>,
    );
    expect((document.getElementById('tx-next') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPrevious).toHaveBeenCalledWith('k51');
    expect(document.getElementById('tx-page')).toBeNull();
  });
});
