/**
 * A library that only some requests need (spreadsheets, SAML, OpenID Connect, QR codes), imported at its
 * first use and kept: a server that never exports a spreadsheet or never signs anyone in through SAML
 * never holds their code (issue 19, idle memory: exceljs alone is about 9 MB of heap). Concurrent first
 * uses share one import.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined; // a failed import is tried again next time
      throw error;
    });
    return pending;
  };
}
