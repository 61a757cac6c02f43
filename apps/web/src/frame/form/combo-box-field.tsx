import type { FieldValues } from 'react-hook-form';
import { ComboBox, type ComboBoxOption } from '../aria/combo-box.tsx';
import { type FieldBase, useBound } from './fields.tsx';

/** A choice among many (a company, an account) with type-ahead: the kernel's ComboBox; '' for none. */
export function ComboBoxField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  options,
  onInputChange,
}: FieldBase<T, string | undefined> & {
  options: readonly ComboBoxOption[];
  onInputChange?: (text: string) => void;
}) {
  const { field, error } = useBound(control, name);
  return (
    <ComboBox
      id={id}
      label={label}
      hint={hint}
      options={options}
      value={field.value ? String(field.value) : null}
      onChange={(value) => field.onChange(value ?? '')}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={error}
      disabled={field.disabled}
      onInputChange={onInputChange}
    />
  );
}
