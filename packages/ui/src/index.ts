export { ErrorSummary, type ErrorSummaryItem, type ErrorSummaryProps } from './error-summary.tsx';
export { PasswordField, type PasswordFieldProps } from './password-field.tsx';
export {
  announcedSeconds,
  resolveSessionWarning,
  SessionExpiryWarning,
  type SessionExpiryWarningProps,
  type SessionWarningContent,
  type SessionWarningTexts,
} from './session-expiry-warning.tsx';
export { FieldError, TextField, type TextFieldProps } from './text-field.tsx';
export * from './theme.ts';
