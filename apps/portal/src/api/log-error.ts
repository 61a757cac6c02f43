import { LIMITS } from '@cardportal/domain';
import { requestVoid } from './client.ts';

/**
 * `PUT /sdportal/rest/log/logErrorStatement.json`: reports a client-side service failure. The
 * statement is a short fixed description plus status codes — never user input or credentials.
 * Fire and forget: a failure to log is swallowed.
 */
export async function logErrorStatement(statement: string): Promise<void> {
  const text = statement.slice(0, LIMITS.clientLogMaxBytes / 4);
  try {
    await requestVoid('/sdportal/rest/log/logErrorStatement.json', { method: 'PUT', json: text });
  } catch {
    // nothing more to do
  }
}
