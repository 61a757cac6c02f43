import { type InputHTMLAttributes, type Ref, useState } from 'react';
import { FieldError } from './text-field.tsx';

export interface PasswordFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'type'> {
  id: string;
  label: string;
  /** Accessible name used when `label` is empty (text bundle missing). */
  fallbackName?: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | undefined;
  /**
   * Name of the show/hide toggle, e.g. "Show password". It stays the same in both states: the
   * state is carried by aria-pressed (WAI-ARIA APG: a toggle button's label does not change).
   */
  toggleLabel: string;
  toggleFallbackName?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** Masked input with a show/hide toggle button (aria-pressed, aria-controls). Hidden by default. */
export function PasswordField({
  id,
  label,
  fallbackName,
  value,
  onValueChange,
  error,
  toggleLabel,
  toggleFallbackName,
  inputRef,
  className,
  disabled,
  ...rest
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const errorId = `${id}-error`;
  return (
    <div className={`cp-field${error ? ' cp-field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="cp-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="cp-password">
        <input
          {...rest}
          ref={inputRef}
          id={id}
          type={visible ? 'text' : 'password'}
          className="cp-field__input cp-password__input"
          value={value}
          disabled={disabled}
          onChange={(event) => onValueChange(event.target.value)}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          aria-label={label ? undefined : fallbackName}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <button
          type="button"
          id={`${id}-toggle`}
          className="cp-password__toggle"
          aria-pressed={visible}
          aria-controls={id}
          aria-label={toggleLabel ? undefined : toggleFallbackName}
          disabled={disabled}
          onClick={() => setVisible((v) => !v)}
        >
          <span className="cp-password__icon" aria-hidden="true" />
          {toggleLabel}
        </button>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
