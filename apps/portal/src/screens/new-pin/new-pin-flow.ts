import { checkNewPin, LIMITS } from '@cardportal/domain';
import { ApiError } from '../../api/client.ts';

export type NewPinField = 'newPin' | 'confirmPin' | 'nextPasscode';
export const NEW_PIN_FIELDS: readonly NewPinField[] = ['newPin', 'confirmPin', 'nextPasscode'];

export type NewPinError =
  | 'required'
  | 'pinFormat'
  | 'doNotMatch'
  | 'leadingZero'
  | 'invalidNextToken'
  | 'invalidPin';
export type NewPinErrors = Partial<Record<NewPinField, NewPinError>>;

export interface NewPinValues {
  newPin: string;
  confirmPin: string;
  nextPasscode: string;
}

const PASSCODE = new RegExp(`^\\d{${LIMITS.nextTokenDigits}}$`);

/**
 * Spec §5 (sign-in portal version): PIN and confirmation required and exactly four digits, equal,
 * no leading zero; the passcode exactly eight digits ('invalid next token', also when empty).
 */
export function validateNewPin(values: NewPinValues): NewPinErrors {
  const errors: NewPinErrors = {};
  const { newPin, confirmPin, nextPasscode } = values;
  const pin = checkNewPin(newPin, confirmPin);
  if (pin.newPin) errors.newPin = pin.newPin;
  if (pin.confirmPin) errors.confirmPin = pin.confirmPin;
  if (!PASSCODE.test(nextPasscode)) errors.nextPasscode = 'invalidNextToken';
  return errors;
}

/**
 * Spec §8, the token service's failures: 400 or 422 whose status text says 'Invalid PIN' stays on the
 * page with the error on the PIN; 503 is 'application server down'; anything else is generic. The
 * error body's message is read too, for HTTP/2 where there is no status text.
 */
export function pinFailure(error: unknown): 'invalidPin' | 'serverDown' | 'generic' {
  if (!(error instanceof ApiError)) return 'generic';
  if (error.status === 400 || error.status === 422) {
    if (`${error.statusText} ${error.message}`.includes('Invalid PIN')) return 'invalidPin';
  }
  if (error.status === 503) return 'serverDown';
  return 'generic';
}
