import { LIMITS } from '@cardportal/domain';
import { desc, lt, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { clientLogs } from '../../db/schema.ts';

/** Control characters become spaces: a stored statement cannot forge log lines or terminals. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, ' ');

/**
 * Stores a browser's error report (spec §7 logError): the message cut to LIMITS.clientLogMaxBytes, the
 * User-Agent to 256 characters (PostgreSQL text cannot even hold a NUL: that was a 500).
 */
export async function recordClientLog(
  db: Executor,
  entry: { message: string; ip: string; userAgent: unknown },
): Promise<void> {
  await db.insert(clientLogs).values({
    message: clean(entry.message).slice(0, LIMITS.clientLogMaxBytes),
    ip: entry.ip,
    userAgent: typeof entry.userAgent === 'string' ? clean(entry.userAgent).slice(0, 256) : null,
  });
}

/** How long a browser's error report is kept, and the most kept (docs/jobs.md, Bounds). */
export const CLIENT_LOG_DAYS = 30;
export const CLIENT_LOG_CAP = 10_000;

/**
 * Keeps `client_logs` bounded (the `portal.purge-client-logs` job): anyone may post a report (30 a
 * minute per address), so the table would grow without end. Forgets reports older than
 * CLIENT_LOG_DAYS, then keeps the newest CLIENT_LOG_CAP. Returns how many rows it deleted.
 */
export async function purgeClientLogs(db: Executor, cap = CLIENT_LOG_CAP): Promise<number> {
  const old = await db
    .delete(clientLogs)
    .where(lt(clientLogs.at, sql`now() - make_interval(days => ${CLIENT_LOG_DAYS})`))
    .returning({ id: clientLogs.id });
  const newest = db
    .select({ id: clientLogs.id })
    .from(clientLogs)
    .orderBy(desc(clientLogs.at), desc(clientLogs.id))
    .limit(cap);
  const excess = await db
    .delete(clientLogs)
    .where(notInArray(clientLogs.id, newest))
    .returning({ id: clientLogs.id });
  return old.length + excess.length;
}
