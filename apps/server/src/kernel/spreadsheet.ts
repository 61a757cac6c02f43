/**
 * Text a spreadsheet will open (CSV and .xlsx exports): a cell that starts like a formula (`=`, `+`, `-`,
 * `@`, tab, carriage return) gets a leading apostrophe, so a merchant name or a description from a file
 * can never run as a formula on an administrator's machine (OWASP "CSV injection"). For text we did not
 * write ourselves; amounts we format are left alone.
 */
export function formulaSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
