export { ErrorSummary, type ErrorSummaryItem, type ErrorSummaryProps } from './error-summary.tsx';
export { PasswordField, type PasswordFieldProps } from './password-field.tsx';
export { FieldError, TextField, type TextFieldProps } from './text-field.tsx';
