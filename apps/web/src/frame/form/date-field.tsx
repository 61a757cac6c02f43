import type { FieldValues } from 'react-hook-form';
import { DatePicker } from '../aria/date-picker.tsx';
import { type FieldBase, useBound } from './fields.tsx';

/**
 * A date (`YYYY-MM-DD` string in the form, '' for none) through the kernel's DatePicker: typed in the
 * user's locale order or chosen from a calendar. `id` goes on the segment group.
 */
export function DateField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  describedBy: extra,
  min,
  max,
}: FieldBase<T, string | undefined> & {
  /** Further ids describing the field (a hint shared by a From/To pair). */
  describedBy?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
}) {
  const { field, error } = useBound(control, name);
  return (
    <DatePicker
      id={id}
      label={label}
      hint={hint}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      ref={field.ref}
      error={error}
      describedBy={extra}
      min={min}
      max={max}
      disabled={field.disabled}
    />
  );
}
