import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { AppProvider } from '../../lib/app-context.tsx';
import { makeContext, problemTextOf, TEXTS } from '../../test/support.tsx';
import { AppForm, SubmitButton } from './app-form.tsx';
import { FieldArrayList } from './field-array.tsx';
import { CheckboxField, RadioGroupField, TextField } from './fields.tsx';
import { useAppForm } from './use-app-form.ts';

const schema = z
  .object({
    userId: z.string().min(1, { error: 'userId.required' }),
    companyId: z.string(),
    notify: z.boolean(),
    kind: z.string().min(1, { error: 'kind.required' }),
    lines: z.array(z.object({ amount: z.string().regex(/^\d+$/, { error: 'amount.invalid' }) })),
  })
  .refine((v) => v.lines.reduce((sum, l) => sum + Number(l.amount || 0), 0) === 100, {
    path: ['lines'],
    error: 'lines.notWhole',
  });

function Harness({
  action,
  listed = false,
}: {
  action: (values: z.output<typeof schema>) => Promise<unknown>;
  /** The summary lists the fields in error; Notify is on and fixed. */
  listed?: boolean;
}) {
  const form = useAppForm({
    schema,
    defaultValues: { userId: '', companyId: '', notify: listed, kind: '', lines: [{ amount: '100' }] },
    fieldAlias: { 'placement.companyId': 'companyId' },
    codeFields: { 'userId.exists': 'userId' },
  });
  return (
    <AppForm
      form={form}
      onSubmit={action}
      id="f"
      errorId="f-error"
      fields={
        listed
          ? { userId: { id: 'f-userId', label: 'User ID' }, kind: { id: 'f-kind-a', label: 'Kind' } }
          : undefined
      }
      summaryTitle={listed ? 'Please correct these' : undefined}
    >
      <TextField
        control={form.control}
        name="userId"
        id="f-userId"
        label="User ID"
        hint="6 to 20 characters"
      />
      <TextField control={form.control} name="companyId" id="f-companyId" label="Company" />
      <CheckboxField control={form.control} name="notify" id="f-notify" label="Notify" disabled={listed} />
      <RadioGroupField
        control={form.control}
        name="kind"
        id="f-kind"
        label="Kind"
        options={[
          { value: 'a', label: 'Alpha' },
          { value: 'b', label: 'Beta' },
        ]}
      />
      <FieldArrayList
        control={form.control}
        name="lines"
        idPrefix="f-lines"
        legend="Lines"
        addLabel="Add line"
        removeLabel={(i) => `Remove line ${i + 1}`}
        newItem={() => ({ amount: '' })}
        min={1}
      >
        {(index) => (
          <TextField
            control={form.control}
            name={`lines.${index}.amount`}
            id={`f-lines-${index}-amount`}
            label="Amount"
          />
        )}
      </FieldArrayList>
      <SubmitButton form={form} id="f-save">
        Save
      </SubmitButton>
    </AppForm>
  );
}

const show = (action: (values: z.output<typeof schema>) => Promise<unknown>, listed = false) =>
  render(
    <AppProvider context={makeContext()} languageTag="en-US">
      <Harness action={action} listed={listed} />
    </AppProvider>,
  );

describe('the form kernel (react-hook-form + zod, server answers on fields)', () => {
  it('checks with the schema, focuses the first field in error and ties each message to its field', async () => {
    const action = vi.fn(async () => undefined);
    show(action);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const userId = screen.getByLabelText('User ID');
    await waitFor(() => expect(userId.getAttribute('aria-invalid')).toBe('true'));
    expect(userId.getAttribute('aria-describedby')).toBe('f-userId-hint f-userId-error');
    expect(document.getElementById('f-userId-error')?.textContent).toBe(problemTextOf('userId.required'));
    expect(document.activeElement).toBe(userId);
    expect(screen.getByRole('group', { name: 'Kind' }).getAttribute('aria-describedby')).toBe('f-kind-error');
    expect(action).not.toHaveBeenCalled();
    // Corrected, the message goes as the user types.
    fireEvent.change(userId, { target: { value: 'carl01' } });
    await waitFor(() => expect(userId.getAttribute('aria-invalid')).toBeNull());
  });

  it('submits the typed values and maps the server answer: fieldErrors, aliases, codes, the rest', async () => {
    const answers = [
      new ApiError(400, 'form.invalid', '', { 'placement.companyId': 'company.unknown', other: 'x.y' }),
      new ApiError(409, 'userId.exists', ''),
      new ApiError(500, 'http.500', ''),
    ];
    const action = vi.fn(async () => {
      throw answers.shift();
    });
    show(action);
    fireEvent.change(screen.getByLabelText('User ID'), { target: { value: 'carl01' } });
    fireEvent.click(screen.getByLabelText('Notify'));
    fireEvent.click(screen.getByLabelText('Beta'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const company = screen.getByLabelText('Company');
    await waitFor(() => expect(company.getAttribute('aria-invalid')).toBe('true'));
    expect(action).toHaveBeenCalledWith({
      userId: 'carl01',
      companyId: '',
      notify: true,
      kind: 'b',
      lines: [{ amount: '100' }],
    });
    expect(document.activeElement).toBe(company);
    expect(document.getElementById('f-error')?.textContent).toBe('');
    // Without `fields` the summary lists nothing and has no heading.
    expect(document.querySelector('#f-error h2')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(document.getElementById('f-userId-error')?.textContent).toBe(TEXTS['catalogue.user.idExists']),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(document.getElementById('f-error')?.textContent).toBe(problemTextOf('http.500')),
    );
    // A problem not tied to a field: focus moves to the summary.
    await waitFor(() => expect(document.activeElement?.id).toBe('f-error'));
  });

  it('lists the fields in error under its title, links them, and submits a fixed checkbox', async () => {
    const action = vi.fn(async () => {
      throw new ApiError(503, 'http.503', '');
    });
    show(action, true);
    const notify = screen.getByLabelText('Notify') as HTMLInputElement;
    expect(notify.disabled).toBe(true);
    expect(notify.checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const summary = document.getElementById('f-error') as HTMLElement;
    await waitFor(() => expect(summary.querySelector('h2')?.textContent).toBe('Please correct these'));
    const links = within(summary).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['#f-userId', '#f-kind-a']);
    expect(links[0]?.textContent).toBe(`User ID: ${problemTextOf('userId.required')}`);
    // Field problems: focus goes to the first field, not the summary.
    expect(document.activeElement?.id).toBe('f-userId');
    fireEvent.click(links[1] as HTMLElement);
    expect(document.activeElement?.id).toBe('f-kind-a');

    fireEvent.change(screen.getByLabelText('User ID'), { target: { value: 'carl01' } });
    fireEvent.click(screen.getByLabelText('Alpha'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(document.activeElement?.id).toBe('f-error'));
    expect(action).toHaveBeenCalledWith(expect.objectContaining({ notify: true, kind: 'a' }));
    expect(within(summary).queryAllByRole('link')).toHaveLength(0);
    expect(summary.querySelector('h2')?.textContent).toBe('Please correct these');
    expect(summary.textContent).toContain(problemTextOf('http.503'));
  });

  it('adds and removes lines, focusing the new line, and shows the list rule on the list', async () => {
    show(async () => undefined);
    const lines = screen.getByRole('group', { name: 'Lines' });
    expect((screen.getByRole('button', { name: 'Remove line 1' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    const second = await screen.findByLabelText('Amount', { selector: '#f-lines-1-amount' });
    await waitFor(() => expect(document.activeElement).toBe(second));
    fireEvent.change(second, { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('User ID'), { target: { value: 'carl01' } });
    fireEvent.click(screen.getByLabelText('Alpha'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lines.getAttribute('aria-describedby')).toBe('f-lines-error'));
    // A key without its own text reads as the catalogue's "invalid entry".
    expect(within(lines).getByText(TEXTS['validation.invalidEntry'] as string)).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 2' }));
    await waitFor(() => expect(document.getElementById('f-lines-1-amount')).toBeNull());
    expect(screen.getAllByLabelText('Amount')).toHaveLength(1);
    await waitFor(() => expect(document.activeElement?.id).toBe('f-lines-add'));
  });
});
