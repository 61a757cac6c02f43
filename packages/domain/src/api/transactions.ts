import { z } from 'zod';
import { DISPUTE_LIMITS, DISPUTE_STATUSES } from '../disputes.ts';
import { SPLIT_LIMITS } from '../splits.ts';
import { SPEND_CATEGORIES, TRANSACTION_EXPORT_FORMATS, TRANSACTION_STATUSES } from '../transactions.ts';
import { keysetPageFields, keysetQueryFields, lenient, pageQueryText } from './common.ts';
import { uploadErrorSchema } from './organisations.ts';

/**
 * Contracts of the Transaction Summary (issue 15 item 3): `GET /app/api/transactions` and
 * `GET /app/api/transactions/:id`, every user type within its scope (docs/transactions.md). Money
 * travels as minor units in a string of digits beside its currency and exponent (DESIGN §7 "Money"); a
 * card number only masked.
 */

export const moneySchema = z
  .object({
    minor: z
      .string()
      .regex(/^-?\d+$/)
      .describe('Whole minor units of the currency, as a string of digits'),
    currency: z.string().describe('ISO 4217 code'),
    exponent: z.number().int().min(0).max(4).describe("The currency's decimals"),
  })
  .meta({ id: 'Money' });
export type Money = z.infer<typeof moneySchema>;

export const transactionSummarySchema = z
  .object({
    id: z.number().int(),
    reference: z.string(),
    transactionDate: z.string().describe('YYYY-MM-DD'),
    postingDate: z.string().describe('YYYY-MM-DD'),
    merchantName: z.string(),
    merchantCity: z.string(),
    merchantCountry: z.string(),
    mcc: z.string(),
    category: z.enum(SPEND_CATEGORIES),
    amount: moneySchema,
    tax: moneySchema,
    status: z.enum(TRANSACTION_STATUSES),
    exported: z.boolean(),
    /** Split into lines (issue 15 item 5). */
    split: z.boolean(),
    /** A dispute was filed (issue 15 item 6). */
    disputed: z.boolean(),
    account: z.object({
      id: z.number().int(),
      maskedNumber: z.string().describe('At most the BIN and the last 4 digits; the rest masked'),
      cardholderName: z.string(),
      /** A real card's alias (a company card without a cardholder), else null. */
      alias: z.string().nullable(),
    }),
  })
  .meta({ id: 'TransactionSummary' });
export type TransactionSummary = z.infer<typeof transactionSummarySchema>;

export const splitLineSchema = z
  .object({
    line: z.number().int().describe('1-based'),
    amount: moneySchema,
    tax: moneySchema,
    description: z.string(),
  })
  .meta({ id: 'SplitLine' });
export type SplitLineView = z.infer<typeof splitLineSchema>;

export const disputeSchema = z
  .object({
    status: z.enum(DISPUTE_STATUSES),
    reasonCode: z.string(),
    /** The reason's description as it was when the dispute was submitted. */
    reasonDescription: z.string(),
    amount: moneySchema,
    explanation: z.string(),
    submittedAt: z.string().describe('ISO 8601'),
    /** Who filed it (a user ID; the person behind an "access as user" session is in the audit trail). */
    submittedBy: z.string().nullable(),
  })
  .meta({ id: 'Dispute' });
export type Dispute = z.infer<typeof disputeSchema>;

export const transactionDetailSchema = transactionSummarySchema
  .extend({
    companyNumber: z.string(),
    companyName: z.string(),
    importedAt: z.string().describe('ISO 8601'),
    /** The steps of its life the caller may take now (type, role permission, program option, status). */
    steps: z.array(z.enum(['review', 'approve', 'lock'])),
    /** The split's lines, in order; empty when not split. */
    splits: z.array(splitLineSchema),
    /** The caller may split it (or change its split) and unsplit it now. */
    canSplit: z.boolean(),
    /** Why its purchase details cannot change (locked, exported), a message key; null when they can. */
    editBlocked: z.string().nullable(),
    /** The dispute filed, null when none. */
    dispute: disputeSchema.nullable(),
    /** The caller may file a dispute now (type, the company's `disputes` option, none filed yet). */
    canDispute: z.boolean(),
  })
  .meta({ id: 'TransactionDetail' });
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

export const transactionListSchema = z
  .object({
    rows: z.array(transactionSummarySchema),
    ...keysetPageFields,
    /** Matches, counted up to the cap; `tooLarge` past it ("Result set is too large"). */
    total: z.number().int(),
    tooLarge: z.boolean(),
    page: z.number().int().describe('The page shown (1-based), when known'),
    pageCount: z.number().int(),
    pageSize: z.number().int(),
  })
  .meta({ id: 'TransactionList' });
export type TransactionList = z.infer<typeof transactionListSchema>;

/** The Transaction Summary's filters, as query text: each checked by the server, named when wrong. */
export const transactionQuerySchema = z.object({
  from: lenient(z.string()).describe('Transaction date from (YYYY-MM-DD)'),
  to: lenient(z.string()).describe('Transaction date to (YYYY-MM-DD), not before `from`'),
  account: lenient(z.string()).describe('A card account id'),
  status: lenient(z.string()).describe(`One of ${TRANSACTION_STATUSES.join(', ')}`),
  currency: lenient(z.string()).describe('ISO 4217 code; needed with `min` or `max`'),
  min: lenient(z.string()).describe("Smallest amount, in major units with the currency's decimals"),
  max: lenient(z.string()).describe("Largest amount, in major units with the currency's decimals"),
  mcc: lenient(z.string()).describe('Merchant category code (4 digits)'),
  q: lenient(z.string()).describe(
    'Merchant name or reference (2–100 characters), or the last 4 digits of a card',
  ),
  order: lenient(z.string()).describe('newest (default) or oldest'),
  page: pageQueryText,
  ...keysetQueryFields,
});
export type TransactionQuery = z.infer<typeof transactionQuerySchema>;

/** The filters once checked (minor units, dates, ids), as the service uses them. */
export interface TransactionFilter {
  from?: string;
  to?: string;
  accountId?: number;
  status?: (typeof TRANSACTION_STATUSES)[number];
  currency?: string;
  min?: bigint;
  max?: bigint;
  mcc?: string;
  q?: string;
  lastFour?: boolean;
  order: 'newest' | 'oldest';
}

/** `GET /app/api/transactions/spend?currency=`: the spend picture of the caller's scope (by month, by category). */
export const spendQuerySchema = z.object({
  currency: lenient(z.string()).describe('ISO 4217 code; default: the currency with the most transactions'),
});

export const spendSummarySchema = z
  .object({
    /** The currencies spent in over the period, most transactions first. */
    currencies: z.array(z.object({ currency: z.string(), count: z.number().int() })),
    /** The currency shown (null: no transactions in the period). */
    currency: z.string().nullable(),
    exponent: z.number().int().min(0).max(4),
    from: z.string().describe('First day of the period (YYYY-MM-DD)'),
    to: z.string().describe('Last day of the period (YYYY-MM-DD)'),
    byMonth: z.array(
      z.object({
        month: z.string().describe('YYYY-MM'),
        minor: z.string().describe('Net spend in minor units (refunds subtracted)'),
        count: z.number().int(),
      }),
    ),
    byCategory: z.array(
      z.object({ category: z.enum(SPEND_CATEGORIES), minor: z.string(), count: z.number().int() }),
    ),
  })
  .meta({ id: 'SpendSummary' });
export type SpendSummary = z.infer<typeof spendSummarySchema>;

/** Months a spend picture covers: this one and the five before. */
export const SPEND_MONTHS = 6;

/** `POST /app/api/transactions/import?name=&issuer=`: the file's bytes (CSV or XML, at most 4 MB). */
export const transactionImportQuerySchema = z.object({
  name: lenient(z.string().max(255)).describe(
    "The file's name, for the record (the content decides its type)",
  ),
  issuer: lenient(z.string()).describe(
    'The issuer the file comes from (its number): every card must be its. An issuer administrator: its own',
  ),
});

/** The media type of the upload's body: the file's bytes as they are. */
export const TRANSACTION_FILE_MEDIA_TYPE = 'application/octet-stream';

export const transactionFileBodySchema = z
  .custom<Uint8Array>((body) => body instanceof Uint8Array && body.length > 0, { error: 'upload.empty' })
  .meta({
    type: 'string',
    contentMediaType: TRANSACTION_FILE_MEDIA_TYPE,
    description: 'The transaction file (CSV with a header row, or XML), at most 4 MB',
  });

/** A refused file: the catalogue code, the rows in error (`row` = the file's line), and the counts. */
export const transactionImportErrorSchema = uploadErrorSchema
  .extend({
    read: z.number().int().optional().describe('Records read'),
    imported: z.number().int().optional(),
    duplicates: z.number().int().optional(),
    rejected: z.number().int().optional().describe('Rows with at least one problem'),
  })
  .meta({ id: 'TransactionImportError' });

export const transactionImportResultSchema = z
  .object({
    rows: z.number().int(),
    imported: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    format: z.enum(['csv', 'xml']),
    /** Columns (CSV) or elements (XML) of the file that are not ours: ignored. */
    ignored: z.array(z.string()),
  })
  .meta({ id: 'TransactionImportResult' });
export type TransactionImportResult = z.infer<typeof transactionImportResultSchema>;

/**
 * `POST /app/api/transactions/:id/split`: 2–100 lines in major units of the transaction's currency
 * (`12.50`; the tax may be left empty for 0). Replaces any split the transaction had.
 */
export const splitBodySchema = z.object({
  lines: z
    .array(
      z.object({
        amount: z.string({ error: 'money.amount.format' }).max(40, { error: 'money.amount.format' }),
        tax: z.string({ error: 'money.amount.format' }).max(40, { error: 'money.amount.format' }).optional(),
        description: z
          .string()
          .max(SPLIT_LIMITS.descriptionMaxLength * 2, { error: 'transactions.split.descriptionTooLong' })
          .optional(),
      }),
      { error: 'transactions.split.count' },
    )
    .max(SPLIT_LIMITS.maxLines, { error: 'transactions.split.count' }),
});
export type SplitBody = z.infer<typeof splitBodySchema>;

/** `POST /app/api/transactions/:id/dispute`: the dispute form; it cannot be changed once submitted. */
export const disputeBodySchema = z.object({
  reason: z.string({ error: 'dispute.reason.required' }).max(20, { error: 'dispute.reason.unknown' }),
  /** In major units; empty or absent: the whole amount of the transaction. */
  amount: z.string().max(40, { error: 'money.amount.format' }).optional(),
  explanation: z
    .string({ error: 'dispute.explanation.required' })
    .max(DISPUTE_LIMITS.explanationMaxLength * 2, { error: 'dispute.explanation.tooLong' }),
});
export type DisputeBody = z.infer<typeof disputeBodySchema>;

/**
 * `POST /app/api/transactions/exports`: the approved (and locked) transactions of one company over at most
 * 30 days (seed 001 §9 "export 30 days"), not exported before unless `again`; they are marked exported.
 */
export const transactionExportBodySchema = z.object({
  from: z.string({ error: 'date.invalid' }).max(20, { error: 'date.invalid' }),
  to: z.string({ error: 'date.invalid' }).max(20, { error: 'date.invalid' }),
  format: z.enum(TRANSACTION_EXPORT_FORMATS, { error: 'transactions.export.format' }),
  /** The company (its number); a company's own administrator may leave it out. */
  company: z.string().max(40).optional(),
  /** Include transactions exported before (they stay marked). */
  again: z.boolean().optional(),
});
export type TransactionExportBody = z.infer<typeof transactionExportBodySchema>;

export const transactionExportSchema = z
  .object({
    id: z.number().int(),
    companyNumber: z.string(),
    companyName: z.string(),
    from: z.string(),
    to: z.string(),
    format: z.enum(TRANSACTION_EXPORT_FORMATS),
    /** Transactions in the file (a split one is one row per line). */
    transactions: z.number().int(),
    rows: z.number().int(),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
    fileName: z.string(),
  })
  .meta({ id: 'TransactionExport' });
export type TransactionExport = z.infer<typeof transactionExportSchema>;

export const transactionExportListSchema = z
  .object({
    rows: z.array(transactionExportSchema),
    ...keysetPageFields,
  })
  .meta({ id: 'TransactionExportList' });
export type TransactionExportList = z.infer<typeof transactionExportListSchema>;

export const transactionExportListQuerySchema = z.object({ ...keysetQueryFields });
