import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../../lib/app-context.tsx';
import { enterDate, makeContext } from '../../test/support.tsx';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { ComboBox } from './combo-box.tsx';
import { DatePicker } from './date-picker.tsx';

const inApp = (children: ReactNode) =>
  render(
    <AppProvider context={makeContext()} languageTag="en-US">
      {children}
    </AppProvider>,
  );

function Confirming({ onConfirm }: { onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete company
      </button>
      <ConfirmDialog
        open={open}
        title="Delete company?"
        body="Acme will be deleted."
        confirmLabel="Delete"
        onConfirm={() => {
          setOpen(false);
          onConfirm();
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

function DateHost() {
  const [value, setValue] = useState('2026-11-10');
  return (
    <>
      <DatePicker id="when" label="When" value={value} onChange={setValue} min="2026-01-01" />
      <output>{value || 'none'}</output>
    </>
  );
}

describe('react-aria wrappers', () => {
  it('ConfirmDialog: a named alertdialog, focus on Cancel, Escape cancels, focus returns to the opener', async () => {
    const onConfirm = vi.fn();
    inApp(<Confirming onConfirm={onConfirm} />);
    const opener = screen.getByRole('button', { name: 'Delete company' });
    act(() => opener.focus());
    fireEvent.click(opener);
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete company?' });
    expect(within(dialog).getByText('Acme will be deleted.').id).toBe(
      dialog.getAttribute('aria-describedby'),
    );
    await waitFor(() => expect(document.activeElement?.id).toBe('confirm-cancel'));
    // The page behind is out of reach (inert, hidden from assistive technology) while the dialog is open.
    expect(opener.closest('[inert], [aria-hidden="true"]')).not.toBeNull();
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(opener);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('ComboBox: typing filters the suggestions, choosing sets the option id', async () => {
    const onChange = vi.fn();
    inApp(
      <ComboBox
        id="company"
        label="Company"
        options={[
          { id: '100001', label: 'Acme Industries' },
          { id: '100002', label: 'Globex' },
        ]}
        value={null}
        onChange={onChange}
        error="Choose a company."
      />,
    );
    const input = screen.getByRole('combobox', { name: 'Company' });
    expect(input.id).toBe('company');
    expect(input.getAttribute('aria-describedby')).toContain('company-error');
    expect(screen.getByRole('button', { name: 'Show suggestions Company' })).toBeDefined();
    act(() => input.focus());
    fireEvent.change(input, { target: { value: 'glo' } });
    const list = await screen.findByRole('listbox');
    expect(within(list).queryByRole('option', { name: 'Acme Industries' })).toBeNull();
    fireEvent.click(within(list).getByRole('option', { name: 'Globex' }));
    expect(onChange).toHaveBeenLastCalledWith('100002');
  });

  it('DatePicker: typed in the locale order or chosen in the calendar, as YYYY-MM-DD', async () => {
    inApp(<DateHost />);
    const group = screen.getByRole('group', { name: 'When' });
    expect(group.id).toBe('when');
    // en-US: month / day / year.
    expect(
      [...group.querySelectorAll('[role="spinbutton"]')].map((s) => s.getAttribute('data-type')),
    ).toEqual(['month', 'day', 'year']);
    enterDate('when', '2026-03-09');
    expect(screen.getByText('2026-03-09')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Choose from calendar When' }));
    const calendar = await screen.findByRole('application');
    expect(within(calendar).getByRole('button', { name: 'Next month' })).toBeDefined();
    fireEvent.click(within(calendar).getByRole('button', { name: /March 20, 2026/ }));
    await waitFor(() => expect(screen.getByText('2026-03-20')).toBeDefined());
  });
});
