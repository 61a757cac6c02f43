import { FieldError } from '@cardportal/ui';
import { type ReactNode, useRef } from 'react';
import {
  type ArrayPath,
  type Control,
  type FieldArray,
  type FieldArrayWithId,
  type FieldValues,
  useFieldArray,
  useFormState,
} from 'react-hook-form';
import { useApp } from '../../lib/app-context.tsx';

/**
 * Repeated groups of fields (the lines of a split, an expense's lines) on react-hook-form's
 * `useFieldArray`, validated by the form's schema (a line's fields `lines.0.amount`, the list's own
 * rule, e.g. "lines must add up", as the array's error). Each line is an `<li>` (`{idPrefix}-{index}`)
 * with its remove button (`{idPrefix}-{index}-remove`); the add button is `{idPrefix}-add` and focuses
 * the new line's first field; after a removal focus moves to the add button.
 */
export function FieldArrayList<T extends FieldValues, N extends ArrayPath<T>>({
  control,
  name,
  idPrefix,
  legend,
  addLabel,
  removeLabel,
  newItem,
  min = 0,
  max,
  children,
}: {
  control: Control<T, unknown, unknown>;
  name: N;
  idPrefix: string;
  legend: string;
  addLabel: string;
  /** The remove button's text for line `index` (0-based), e.g. "Remove line 2". */
  removeLabel: (index: number) => string;
  newItem: () => FieldArray<T, N>;
  /** Lines that must remain (their remove buttons are disabled). */
  min?: number;
  max?: number;
  /** The fields of line `index`: name them `${name}.${index}.field`. */
  children: (index: number, item: FieldArrayWithId<T, N>) => ReactNode;
}) {
  const { fieldProblemText } = useApp();
  // N is checked against T at the call site; the hooks take the untyped form of both.
  const untyped = control as unknown as Control<FieldValues>;
  const { fields, append, remove } = useFieldArray({ control: untyped, name: name as string });
  const { errors } = useFormState({ control: untyped, name: name as string });
  const addRef = useRef<HTMLButtonElement>(null);
  const listError = (() => {
    const entry = name
      .split('.')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], errors) as
      | { message?: string; root?: { message?: string } }
      | undefined;
    return entry?.root?.message ?? entry?.message;
  })();
  return (
    <fieldset
      className={`app-field-array${listError ? ' cp-field--invalid' : ''}`}
      id={idPrefix}
      aria-describedby={listError ? `${idPrefix}-error` : undefined}
    >
      <legend>{legend}</legend>
      <ol className="app-field-array__list">
        {fields.map((item, index) => (
          <li key={item.id} id={`${idPrefix}-${index}`} className="app-field-array__item">
            {children(index, item as FieldArrayWithId<T, N>)}
            <button
              type="button"
              className="app-button app-button--small"
              id={`${idPrefix}-${index}-remove`}
              disabled={fields.length <= min}
              onClick={() => {
                remove(index);
                // After the line has gone: a blur of its field during the removal would write it back.
                window.setTimeout(() => addRef.current?.focus(), 0);
              }}
            >
              {removeLabel(index)}
            </button>
          </li>
        ))}
      </ol>
      <FieldError id={`${idPrefix}-error`} message={listError ? fieldProblemText(listError) : undefined} />
      <button
        type="button"
        ref={addRef}
        className="app-button app-button--small"
        id={`${idPrefix}-add`}
        disabled={max !== undefined && fields.length >= max}
        onClick={() => append(newItem() as never)}
      >
        {addLabel}
      </button>
    </fieldset>
  );
}
