import { checkCardNumber } from './card-numbers.ts';
import { currencyExponent, parseMinorUnits } from './money.ts';
import { normaliseAccountNumber } from './organisations.ts';

/**
 * Card transactions (issue 15, seed 001 §4, DESIGN §7 "Transactions"): the rules of one transaction as an
 * issuer's file carries it. Every problem is a message key (`validation.{key}`), named with its field,
 * so a file's report says which line and which column is wrong.
 */

/** The canonical CSV columns, in order (DESIGN §7); the XML form uses the same names as elements. */
export const TRANSACTION_FILE_COLUMNS = [
  'reference',
  'account_number',
  'transaction_date',
  'posting_date',
  'merchant_name',
  'merchant_city',
  'merchant_country',
  'mcc',
  'amount',
  'currency',
  'tax_amount',
] as const;
export type TransactionFileColumn = (typeof TRANSACTION_FILE_COLUMNS)[number];

/** Columns a file may leave out (empty or absent): the city and the tax (then 0). */
export const OPTIONAL_TRANSACTION_COLUMNS: readonly TransactionFileColumn[] = ['merchant_city', 'tax_amount'];

/** Seed 001 §4: reviewed before approved, approved before locked. Export is a mark beside the status. */
export const TRANSACTION_STATUSES = ['New', 'Reviewed', 'Approved', 'Locked'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The steps of a transaction's life, each from the status before it (seed 001 §4). */
export const TRANSACTION_STEPS = {
  review: { from: 'New', to: 'Reviewed', action: 'reviewTransactions' },
  approve: { from: 'Reviewed', to: 'Approved', action: 'approveTransactions' },
  lock: { from: 'Approved', to: 'Locked', action: 'lockTransactions' },
} as const;
export type TransactionStep = keyof typeof TRANSACTION_STEPS;
export const TRANSACTION_STEP_NAMES = Object.keys(TRANSACTION_STEPS) as TransactionStep[];

/**
 * Why a step cannot be taken from a status (a message key), or undefined when it can: reviewed before
 * approved, approved before locked (seed 001 §4), and no step twice.
 */
export function checkTransactionStep(status: TransactionStatus, step: TransactionStep): string | undefined {
  const { from } = TRANSACTION_STEPS[step];
  if (status === from) return undefined;
  const order = TRANSACTION_STATUSES.indexOf(status);
  if (order > TRANSACTION_STATUSES.indexOf(from)) return 'transactions.step.done';
  return step === 'approve' ? 'transactions.step.reviewFirst' : 'transactions.step.approveFirst';
}

export const TRANSACTION_LIMITS = {
  referenceMaxLength: 40,
  merchantNameMaxLength: 60,
  merchantCityMaxLength: 40,
  /** Listed problems of one file; past it the report counts without listing. */
  reportMaxProblems: 1000,
} as const;

/** One transaction as a file gives it, checked: money in minor units, the card number digits only. */
export interface TransactionRecord {
  reference: string;
  accountNumber: string;
  transactionDate: string;
  postingDate: string;
  merchantName: string;
  merchantCity: string;
  merchantCountry: string;
  mcc: string;
  amount: bigint;
  currency: string;
  tax: bigint;
}

export interface FieldProblem {
  field: TransactionFileColumn;
  problem: string;
}

const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const COUNTRY = /^[A-Z]{2}$/;
const MCC = /^\d{4}$/;
/** Control characters have no place in a name shown on screens and written to files. */
const CONTROL = /\p{Cc}/u;

/** Whether `text` is a real calendar date written YYYY-MM-DD (1900–2999). */
export function isIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

type Checked =
  | { value: string; problem?: never }
  | { value?: never; problem: 'required' | 'tooLong' | 'format' };

function text(field: string | undefined, max: number, required: boolean): Checked {
  const value = (field ?? '').trim();
  if (value.length === 0) return required ? { problem: 'required' } : { value: '' };
  if ([...value].length > max) return { problem: 'tooLong' };
  if (CONTROL.test(value)) return { problem: 'format' };
  return { value };
}

/**
 * Checks one record of a file (column name → text) and answers the transaction, or every field's first
 * problem. Amount and tax are major units with at most the currency's decimals; a credit is negative;
 * the tax has the amount's sign and is not larger than it; the posting date is not before the
 * transaction date.
 */
export function checkTransactionRecord(
  record: Readonly<Partial<Record<TransactionFileColumn, string>>>,
): { transaction: TransactionRecord } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const fail = (field: TransactionFileColumn, problem: string) => {
    problems.push({ field, problem });
  };

  const reference = text(record.reference, TRANSACTION_LIMITS.referenceMaxLength, true);
  if (reference.problem) fail('reference', `transaction.reference.${reference.problem}`);
  else if (!REFERENCE.test(reference.value)) fail('reference', 'transaction.reference.format');

  const accountNumber = normaliseAccountNumber(record.account_number ?? '');
  const numberProblem = checkCardNumber(accountNumber);
  if (numberProblem) fail('account_number', numberProblem);

  const transactionDate = (record.transaction_date ?? '').trim();
  const postingDate = (record.posting_date ?? '').trim();
  if (!isIsoDate(transactionDate)) fail('transaction_date', 'transaction.date.format');
  if (!isIsoDate(postingDate)) fail('posting_date', 'transaction.date.format');
  else if (isIsoDate(transactionDate) && postingDate < transactionDate)
    fail('posting_date', 'transaction.postingDate.beforeTransaction');

  const merchantName = text(record.merchant_name, TRANSACTION_LIMITS.merchantNameMaxLength, true);
  if (merchantName.problem) fail('merchant_name', `transaction.merchantName.${merchantName.problem}`);
  const merchantCity = text(record.merchant_city, TRANSACTION_LIMITS.merchantCityMaxLength, false);
  if (merchantCity.problem) fail('merchant_city', `transaction.merchantCity.${merchantCity.problem}`);
  const merchantCountry = (record.merchant_country ?? '').trim().toUpperCase();
  if (!COUNTRY.test(merchantCountry)) fail('merchant_country', 'transaction.country.format');
  const mcc = (record.mcc ?? '').trim();
  if (!MCC.test(mcc)) fail('mcc', 'transaction.mcc.format');

  const currency = (record.currency ?? '').trim().toUpperCase();
  let amount: bigint | undefined;
  let tax: bigint | undefined;
  if (currencyExponent(currency) === undefined) fail('currency', 'money.currency.unknown');
  else {
    const parsedAmount = parseMinorUnits(record.amount ?? '', currency);
    if ('problem' in parsedAmount) fail('amount', parsedAmount.problem);
    else if (parsedAmount.minor === 0n) fail('amount', 'money.amount.zero');
    else amount = parsedAmount.minor;
    const taxText = (record.tax_amount ?? '').trim();
    const parsedTax = taxText === '' ? { minor: 0n } : parseMinorUnits(taxText, currency);
    if ('problem' in parsedTax) fail('tax_amount', parsedTax.problem);
    else tax = parsedTax.minor;
    if (amount !== undefined && tax !== undefined && tax !== 0n) {
      const sameSign = amount < 0n === tax < 0n;
      const abs = (v: bigint) => (v < 0n ? -v : v);
      if (!sameSign || abs(tax) > abs(amount)) fail('tax_amount', 'transaction.tax.exceedsAmount');
    }
  }

  if (
    problems.length > 0 ||
    amount === undefined ||
    tax === undefined ||
    reference.value === undefined ||
    merchantName.value === undefined ||
    merchantCity.value === undefined
  )
    return { problems };
  return {
    transaction: {
      reference: reference.value,
      accountNumber,
      transactionDate,
      postingDate,
      merchantName: merchantName.value,
      merchantCity: merchantCity.value,
      merchantCountry,
      mcc,
      amount,
      currency,
      tax,
    },
  };
}

/** Spend categories of the merchant category codes (ISO 18245 ranges), for the spend picture. */
export const SPEND_CATEGORIES = [
  'airlines',
  'lodging',
  'carRental',
  'travel',
  'restaurants',
  'fuel',
  'office',
  'technology',
  'services',
  'retail',
  'other',
] as const;
export type SpendCategory = (typeof SPEND_CATEGORIES)[number];

const MCC_RANGES: readonly [number, number, SpendCategory][] = [
  [3000, 3350, 'airlines'],
  [4511, 4511, 'airlines'],
  [3351, 3500, 'carRental'],
  [7512, 7513, 'carRental'],
  [3501, 3999, 'lodging'],
  [7011, 7011, 'lodging'],
  [4011, 4131, 'travel'],
  [4411, 4411, 'travel'],
  [4722, 4722, 'travel'],
  [4784, 4789, 'travel'],
  [5811, 5814, 'restaurants'],
  [5541, 5542, 'fuel'],
  [5983, 5983, 'fuel'],
  [5021, 5021, 'office'],
  [5111, 5111, 'office'],
  [5943, 5943, 'office'],
  [5044, 5045, 'technology'],
  [4812, 4816, 'technology'],
  [5732, 5734, 'technology'],
  [7372, 7379, 'technology'],
  [7311, 7399, 'services'],
  [8111, 8999, 'services'],
  [5200, 5999, 'retail'],
];

/** The spend category of a merchant category code. */
export function mccCategory(mcc: string): SpendCategory {
  const code = Number(mcc);
  for (const [from, to, category] of MCC_RANGES) if (code >= from && code <= to) return category;
  return 'other';
}

/** General-ledger export (issue 15 item 7): the file formats. */
export const TRANSACTION_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type TransactionExportFormat = (typeof TRANSACTION_EXPORT_FORMATS)[number];

/** Seed 001 §9: "Date ranges: export 30 days". */
export const TRANSACTION_EXPORT_MAX_DAYS = 30;

/** The transaction statuses an export takes: approved, and locked (approved before it). */
export const EXPORTABLE_STATUSES: readonly TransactionStatus[] = ['Approved', 'Locked'];

/**
 * An export's From / To (`YYYY-MM-DD`, both inclusive): each a real date, From not after To, at most 30
 * days. Field → message key, empty when right.
 */
export function checkExportRange(from: string, to: string): { from?: string; to?: string } {
  const problems: { from?: string; to?: string } = {};
  if (!isIsoDate(from)) problems.from = 'date.invalid';
  if (!isIsoDate(to)) problems.to = 'date.invalid';
  if (problems.from || problems.to) return problems;
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (days < 0) return { to: 'dateRange.fromAfterTo' };
  if (days + 1 > TRANSACTION_EXPORT_MAX_DAYS) return { to: 'transactions.export.rangeTooLong' };
  return {};
}

/**
 * The columns of the general-ledger file, in order: one row per transaction, or per line of a split one
 * (the line's amount and tax; `line` 0 when not split). Amounts in major units with the currency's
 * decimals, as text; the card only masked (DESIGN §7 "Card data").
 */
export const TRANSACTION_EXPORT_COLUMNS = [
  'reference',
  'line',
  'transaction_date',
  'posting_date',
  'company_number',
  'card',
  'cardholder',
  'merchant_name',
  'merchant_city',
  'merchant_country',
  'mcc',
  'category',
  'currency',
  'amount',
  'tax_amount',
  'description',
  'status',
  'disputed',
  'allocation_line',
  'allocation_percent',
] as const;
