import type { InputHTMLAttributes, Ref } from 'react';

export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'type'> {
  id: string;
  /** Visible label text. When empty (text bundle missing), `fallbackName` names the input instead. */
  label: string;
  fallbackName?: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Error text shown under the input and tied to it with aria-describedby. */
  error?: string | undefined;
  /** A hint shown between the label and the input (the format expected), also tied with aria-describedby. */
  hint?: string | undefined;
  type?: 'text' | 'email' | 'tel';
  inputRef?: Ref<HTMLInputElement>;
}

/** Labelled text input with an accessible inline error. */
export function TextField({
  id,
  label,
  fallbackName,
  value,
  onValueChange,
  error,
  hint,
  type = 'text',
  inputRef,
  className,
  ...rest
}: TextFieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={`cp-field${error ? ' cp-field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="cp-field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="cp-field__hint">
          {hint}
        </p>
      ) : null}
      <input
        {...rest}
        ref={inputRef}
        id={id}
        type={type}
        className="cp-field__input"
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-label={label ? undefined : fallbackName}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** The error line under a field; renders nothing when there is no error. */
export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="cp-field__error">
      {message}
    </p>
  );
}
