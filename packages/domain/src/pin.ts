import { LIMITS } from './limits.ts';

export type PinProblem = 'required' | 'pinFormat' | 'leadingZero' | 'doNotMatch';

const PIN = new RegExp(`^\\d{${LIMITS.pinDigits}}$`);

/** A PIN a user may choose (seed 001 §5): exactly four digits, no leading zero. */
export function checkPin(pin: string): PinProblem | undefined {
  if (pin.length === 0) return 'required';
  if (!PIN.test(pin)) return 'pinFormat';
  if (pin.startsWith('0')) return 'leadingZero';
  return undefined;
}

/** The new PIN and its confirmation (spec §5): each a valid PIN, and equal. */
export function checkNewPin(
  newPin: string,
  confirmPin: string,
): { newPin?: PinProblem; confirmPin?: PinProblem } {
  const problems: { newPin?: PinProblem; confirmPin?: PinProblem } = {};
  const first = checkPin(newPin);
  if (first) problems.newPin = first;
  if (confirmPin.length === 0) problems.confirmPin = 'required';
  else if (!PIN.test(confirmPin)) problems.confirmPin = 'pinFormat';
  else if (confirmPin !== newPin) problems.confirmPin = 'doNotMatch';
  return problems;
}
