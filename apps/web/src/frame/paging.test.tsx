import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../lib/app-context.tsx';
import { makeContext, problemTextOf } from '../test/support.tsx';
import { KeysetPaging, Paging } from './paging.tsx';

describe('Paging (shared by the search screens)', () => {
  it('goes back and forth, and jumps only to a whole page number in range', () => {
    const onGo = vi.fn();
    render(
      <AppProvider context={makeContext()} languageTag="en-US">
        <Paging idPrefix="x" page={1} pages={4} onGo={onGo} />
      </AppProvider>,
    );
    expect(screen.getByText('Page 1 of 4').id).toBe('x-page');
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onGo).toHaveBeenLastCalledWith(2);
    const jump = screen.getByLabelText('Go to page');
    fireEvent.change(jump, { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(screen.getByText(problemTextOf('pageJump.notWholeNumber'))).toBeDefined();
    expect(jump.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(jump, { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(onGo).toHaveBeenLastCalledWith(4);
  });

  it('pages by key: previous and next hand back the cursors, "Page n of y" for a counted search, no jump', () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    const { rerender } = render(
      <AppProvider context={makeContext()} languageTag="en-US">
        <KeysetPaging
          idPrefix="k"
          previousKey="p1"
          nextKey="n1"
          onPrevious={onPrevious}
          onNext={onNext}
          pageNumber={2}
          pageCount={40}
        />
      </AppProvider>,
    );
    expect(screen.getByText('Page 2 of 40').id).toBe('k-page');
    expect(screen.queryByLabelText('Go to page')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onNext).toHaveBeenLastCalledWith('n1');
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPrevious).toHaveBeenLastCalledWith('p1');
    rerender(
      <AppProvider context={makeContext()} languageTag="en-US">
        <KeysetPaging
          idPrefix="k"
          previousKey="p1"
          nextKey={null}
          onPrevious={onPrevious}
          onNext={onNext}
          pageNumber={3}
        />
      </AppProvider>,
    );
    expect(screen.getByText('Page 3').id).toBe('k-page');
    expect((document.getElementById('k-next') as HTMLButtonElement).disabled).toBe(true);
  });
});
