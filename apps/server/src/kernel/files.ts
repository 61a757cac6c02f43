import { createHash } from 'node:crypto';
import { EXPENSE_REPORT_LIMITS } from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { storedFiles } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import { carriesVirusSignature, virusFound } from './uploads.ts';

/**
 * The content-addressed file store (DESIGN §7 "Files", docs/expenses.md "Receipts"): a file is known by
 * the SHA-256 of its bytes, stored once in the database (bytea, so every instance sees it), its type
 * decided by its content — magic bytes, never the name or the declared type — and refused when it
 * carries the EICAR signature. Receipts are the first files; reports and resources follow the same way.
 */

/** The receipt types seed 001 §9 allows ("receipts JPG, PDF or PNG"), by their first bytes. */
const SIGNATURES: { mediaType: string; magic: number[] }[] = [
  { mediaType: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { mediaType: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mediaType: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

/** The receipt type of the bytes, or undefined when they are none of JPEG, PNG and PDF. */
export function receiptMediaType(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find((s) => s.magic.every((b, i) => bytes[i] === b))?.mediaType;
}

export interface StoredFile {
  sha256: string;
  mediaType: string;
  size: number;
}

/**
 * Checks and stores a receipt: empty or above 4 MB (413 "File size limit of 4 megabytes exceeded."),
 * not JPEG, PNG or PDF by content (415 "Invalid or Unsupported File Format"), the EICAR signature (422);
 * then stores it once by its hash.
 */
export async function storeReceipt(db: Executor, bytes: Uint8Array): Promise<StoredFile> {
  if (bytes.byteLength === 0)
    throw new AppError('invalid', 'receipt.empty', { message: 'The receipt file is empty' });
  if (bytes.byteLength > EXPENSE_REPORT_LIMITS.receiptMaxBytes)
    throw new AppError('tooLarge', 'upload.tooLarge', {
      message: 'File size limit of 4 megabytes exceeded.',
    });
  const mediaType = receiptMediaType(bytes);
  if (!mediaType)
    throw new AppError('unsupported', 'upload.unsupportedFormat', {
      message: 'Invalid or Unsupported File Format',
    });
  if (carriesVirusSignature(bytes)) throw virusFound();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db
    .insert(storedFiles)
    .values({ sha256, mediaType, size: bytes.byteLength, bytes })
    .onConflictDoNothing({ target: storedFiles.sha256 });
  return { sha256, mediaType, size: bytes.byteLength };
}

/** A stored file's bytes and type, or undefined. */
export async function readStoredFile(
  db: Executor,
  sha256: string,
): Promise<{ mediaType: string; bytes: Uint8Array } | undefined> {
  const [row] = await db
    .select({ mediaType: storedFiles.mediaType, bytes: storedFiles.bytes })
    .from(storedFiles)
    .where(eq(storedFiles.sha256, sha256));
  return row;
}
