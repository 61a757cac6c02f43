import { FieldError, PasswordField as UiPasswordField } from '@cardportal/ui';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { type Control, type FieldPathByValue, type FieldValues, useController } from 'react-hook-form';
import { useApp } from '../../lib/app-context.tsx';

/**
 * Form fields bound to react-hook-form, in the application's one layout: label, control, hint and
 * error line (`{id}-hint`, `{id}-error`, tied to the control by aria-describedby). Every field takes
 * the form's `control` (so `name` is type-checked against the schema) and an element `id`; error
 * messages are message keys, shown through `fieldProblemText`. The date and combo-box fields live in
 * their own files (date-field.tsx, combo-box-field.tsx): they bring react-aria, which a screen without
 * them should not load.
 */
export interface FieldBase<T extends FieldValues, V> {
  control: Control<T, unknown, unknown>;
  name: FieldPathByValue<T, V>;
  /** The control's element id (keep the screen's existing ids: e2e specs and DESIGN §3 use them). */
  id: string;
  label: string;
  hint?: string | undefined;
  /** The field must be filled: its label shows the marker (the control carries `required` for AT). */
  required?: boolean | undefined;
}

const describedBy = (id: string, hint: unknown, error: unknown, extra?: string) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : '', extra ?? ''].filter(Boolean).join(' ') || undefined;

/** The field's react-hook-form binding and its error text (translated). */
export function useBound<T extends FieldValues, V>(
  control: Control<T, unknown, unknown>,
  name: FieldPathByValue<T, V>,
) {
  const { fieldProblemText } = useApp();
  // biome-ignore lint/suspicious/noExplicitAny: the name is checked by FieldPathByValue at the call site
  const { field, fieldState } = useController({ control: control as Control<any>, name: name as string });
  const error = fieldState.error?.message ? fieldProblemText(fieldState.error.message) : undefined;
  return { field, error };
}

function Shell({
  id,
  label,
  hint,
  error,
  required,
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  required?: boolean | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`cp-field${error ? ' cp-field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      {/* The marker is drawn by CSS with empty alternative text: seen, not read — the control's own
          `required` is what a screen reader announces. */}
      <label className={`cp-field__label${required ? ' cp-field__label--required' : ''}`} htmlFor={id}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="app-hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

type InputRest = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'value' | 'onChange' | 'onBlur' | 'type' | 'children'
>;

/** A one-line text input (text, e-mail, phone, search, a number typed as text). */
export function TextField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  type = 'text',
  ...rest
}: FieldBase<T, string | undefined> & InputRest & { type?: 'text' | 'email' | 'tel' | 'search' | 'url' }) {
  const { field, error } = useBound(control, name);
  return (
    <Shell id={id} label={label} hint={hint} error={error} required={rest.required}>
      <input
        {...rest}
        id={id}
        type={type}
        className="cp-field__input"
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        ref={field.ref}
        disabled={field.disabled || rest.disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </Shell>
  );
}

/** Several lines of text (an explanation, a description), with its character limit shown as a hint. */
export function TextAreaField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  rows = 4,
  maxLength,
  required,
}: FieldBase<T, string | undefined> & { rows?: number; maxLength?: number }) {
  const { field, error } = useBound(control, name);
  return (
    <Shell id={id} label={label} hint={hint} error={error} required={required}>
      <textarea
        id={id}
        required={required}
        rows={rows}
        maxLength={maxLength}
        className="cp-field__input app-textarea"
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        ref={field.ref}
        disabled={field.disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
    </Shell>
  );
}

/** A masked input with the show/hide toggle of @cardportal/ui (passwords, security answers, PINs). */
export function PasswordField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  toggleLabel,
  autoComplete,
}: Omit<FieldBase<T, string | undefined>, 'hint'> & { toggleLabel: string; autoComplete?: string }) {
  const { field, error } = useBound(control, name);
  return (
    <UiPasswordField
      id={id}
      label={label}
      name={field.name}
      value={field.value ?? ''}
      onValueChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={error}
      toggleLabel={toggleLabel}
      autoComplete={autoComplete}
    />
  );
}

export interface SelectOption {
  value: string;
  label: string;
  /** The option's language, when it is a language's own name. */
  lang?: string | undefined;
}

/** A native select (keyboard and screen-reader behaviour of the platform; e2e `selectOption` works). */
export function SelectField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  options,
  placeholder,
  ...rest
}: FieldBase<T, string | undefined> &
  Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    'id' | 'name' | 'value' | 'onChange' | 'onBlur' | 'children'
  > & {
    options: readonly SelectOption[];
    /** The text of an empty first option (value ''), e.g. "Choose…" or "Any". */
    placeholder?: string | undefined;
  }) {
  const { field, error } = useBound(control, name);
  return (
    <Shell id={id} label={label} hint={hint} error={error} required={rest.required}>
      <select
        {...rest}
        id={id}
        className="cp-field__input"
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        ref={field.ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

/** A checkbox with its label to the right, aligned with the other fields' controls. */
export function CheckboxField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  disabled,
}: FieldBase<T, boolean | undefined> & {
  /** Shown but fixed (a choice that cannot be undone here); its value is still submitted. */
  disabled?: boolean | undefined;
}) {
  const { field, error } = useBound(control, name);
  return (
    <div className={`cp-field cp-field--check${error ? ' cp-field--invalid' : ''}`}>
      <div className="app-check">
        <input
          id={id}
          type="checkbox"
          name={field.name}
          checked={Boolean(field.value)}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="app-hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/**
 * Radio buttons in a fieldset whose legend is the label. `id` is a prefix: each radio is
 * `{id}-{value}`, the error line `{id}-error`.
 */
export function RadioGroupField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  hint,
  options,
}: FieldBase<T, string | undefined> & { options: readonly SelectOption[] }) {
  const { field, error } = useBound(control, name);
  return (
    <fieldset
      className={`cp-field cp-field--group${error ? ' cp-field--invalid' : ''}`}
      id={id}
      aria-describedby={describedBy(id, hint, error)}
    >
      <legend className="cp-field__label">{label}</legend>
      <div className="app-choices">
        {options.map((option, index) => (
          <div className="app-check" key={option.value}>
            <input
              type="radio"
              id={`${id}-${option.value}`}
              name={field.name}
              value={option.value}
              checked={field.value === option.value}
              onChange={() => field.onChange(option.value)}
              onBlur={field.onBlur}
              ref={index === 0 ? field.ref : undefined}
              aria-invalid={error ? true : undefined}
            />
            <label htmlFor={`${id}-${option.value}`} lang={option.lang}>
              {option.label}
            </label>
          </div>
        ))}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="app-hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
