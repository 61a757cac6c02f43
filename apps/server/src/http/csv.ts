import { fileBytesSchema } from '@cardportal/domain';
import type { FastifyReply } from 'fastify';
import type { RouteAnswers } from './app-handler.ts';

/** A list export (kernel/spreadsheet.ts csvDocument) as a download: CSV, attachment, never sniffed. */
export function sendCsv(reply: FastifyReply, file: { csv: string; filename: string }): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('x-content-type-options', 'nosniff')
    .send(file.csv);
}

/** The contract's answer of a CSV export route. */
export const csvAnswer = (description: string): RouteAnswers => ({
  200: { description, content: { 'text/csv': { schema: fileBytesSchema } } },
});
