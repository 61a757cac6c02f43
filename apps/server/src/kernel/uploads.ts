import { AppError } from '../http/app-error.ts';

/**
 * What every upload checks before it reads a file (DESIGN §7 "Files"): the EICAR anti-virus test
 * string refuses a file as infected (seed 001 §8, upload errors "virus"). This is a signature check of
 * the upload, not an anti-virus engine (docs/organisations.md).
 */
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*');

/** Whether the bytes carry the EICAR test signature anywhere. */
export function carriesVirusSignature(bytes: Uint8Array | string): boolean {
  return typeof bytes === 'string'
    ? bytes.includes(EICAR.toString())
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(EICAR);
}

/** The refusal of an infected file. */
export function virusFound(): AppError {
  return new AppError('unprocessable', 'upload.virus', {
    message: 'The file contains a virus signature and was refused',
  });
}
