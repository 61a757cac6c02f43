import { z } from 'zod';
import type { ApiErrorBody } from '../login.ts';

/**
 * The building blocks of every route's contract (docs/api.md "Contracts"): the server declares each
 * route's params, query, body and answers with zod schemas of this package, validates requests with
 * them, serialises answers through them (a field the schema lacks never leaves the server) and
 * publishes them as OpenAPI 3.1 at `GET /app/api/openapi.json`.
 */

/**
 * A schema written beside an interface the clients read is checked to describe exactly that interface:
 * `Expect<SameType<z.output<typeof schema>, Interface>>` fails to compile when they differ.
 */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Expect<T extends true> = T;

/** The one shape of every 4xx answer: `code` and every `fieldErrors` value are message keys. */
export const apiErrorSchema = z
  .object({
    code: z.string().describe('What went wrong: a message key (`validation.{code}` in the Messages bundle)'),
    message: z.string().describe("The code's text in the caller's language"),
    fieldErrors: z
      .record(z.string(), z.string())
      .optional()
      .describe('Field (dotted path) → message key, the first problem of each field'),
  })
  .meta({ id: 'ApiError', description: 'A refusal: `{ code, message, fieldErrors? }`' });
export type ApiErrorContractCheck = Expect<SameType<z.output<typeof apiErrorSchema>, ApiErrorBody>>;

/**
 * A refusal of the portal's credential services: the common shape plus `errors[0]` / `error[0]`, which
 * the portal reads (spec §7, §8), and what a password-policy refusal adds (`problems`, `minLength`). A
 * refusal before the service is reached (no session, too many requests) has the common shape alone.
 */
const serviceErrorEntrySchema = z.object({
  code: z.string(),
  message: z.string(),
  problems: z.array(z.string()).optional(),
  minLength: z.number().int().optional(),
});
export const serviceErrorSchema = apiErrorSchema
  .extend({
    problems: z.array(z.string()).optional().describe('password.policy: the rules the new password breaks'),
    minLength: z.number().int().optional().describe("password.policy: the user's minimum length"),
    errors: z.array(serviceErrorEntrySchema).optional(),
    error: z.array(serviceErrorEntrySchema).optional(),
  })
  .meta({
    id: 'ServiceError',
    description:
      'A refusal of a credential service: `{ code, message, errors: [{ code, message }], error: [...] }`',
  });
export type ServiceErrorBody = z.infer<typeof serviceErrorSchema>;

/** `{ ok: true }`: done. */
export const okSchema = z.object({ ok: z.literal(true) }).describe('Done');

/** An answer without a body. */
export const noContentSchema = z.undefined().describe('Done: no content');

/**
 * The body of a call that takes none: whatever is sent is ignored (the document shows no request body).
 */
export const noBodySchema = z
  .unknown()
  .meta({ 'x-no-body': true, description: 'No body: anything sent is ignored' });

/** A request part a route takes nothing in: no field is read (any sent are ignored). */
export const emptyObjectSchema = z.object({}).describe('Nothing: no field is read');

/**
 * A lenient field: a value that does not pass `schema` (another type, a repeated query parameter, a
 * malformed value) counts as absent rather than refusing the request. For fields a call accepts and
 * ignores when unusable (a locale, a co-brand name), as the portal spec's calls do.
 */
export const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** A text query parameter: a repeated one counts by its first value. */
export const queryText = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (Array.isArray(value) ? value[0] : value));

/** Path parameters: Fastify hands each over as text; the route decides what an unknown one answers. */
export const pathText = (description: string) => z.string().describe(description);
export const companyNumberParam = pathText('The company number');
export const issuerNumberParam = pathText('The issuer number');
export const recordIdParam = pathText('The record id (a whole number; anything else is not found)');
export const userIdParam = pathText('The user ID (any case)');

export const companyParamsSchema = z.object({ number: companyNumberParam });
export const companyRecordParamsSchema = z.object({ number: companyNumberParam, id: recordIdParam });
export const orgPointParamsSchema = z.object({
  number: companyNumberParam,
  point: pathText('The org point number'),
});
export const issuerParamsSchema = z.object({ number: issuerNumberParam });
export const issuerRecordParamsSchema = z.object({ number: issuerNumberParam, id: recordIdParam });
export const recordParamsSchema = z.object({ id: recordIdParam });
export const userParamsSchema = z.object({ userId: userIdParam });
export const wildcardParamsSchema = z.object({ '*': z.string().describe('The rest of the path') });

/** A page of a search: `page` is the page jump (a whole number from 1 to the page count). */
export const pageQueryText = lenient(z.string()).describe('Page jump: a whole number from 1 (default 1)');

/** The cookie and header the OpenAPI document names as security schemes (DESIGN §5). */
export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'cpsid',
    description:
      'The session: an opaque id in an HttpOnly, SameSite=Lax cookie set by the sign-in (POST /heracles/login)',
  },
  csrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-TOKEN',
    description:
      'Every non-GET/HEAD request: the `sec-token` cookie the server issued for this session, also as X-XSRF-TOKEN',
  },
} as const;

/**
 * Paging by key (docs/paging.md): a list answers `nextCursor` / `prevCursor` (opaque, null at either
 * end) and takes one of them back as `after` / `before`. A cursor the server cannot read is a 400
 * `page.cursorInvalid` on that parameter.
 */
export const pageCursorSchema = z
  .string()
  .max(1024, { error: 'page.cursorInvalid' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'page.cursorInvalid' })
  .describe('An opaque cursor from `nextCursor` / `prevCursor` of the same list');
export const keysetQueryFields = {
  after: pageCursorSchema.optional(),
  before: pageCursorSchema.optional(),
};
/**
 * A list's sort orders (issue 20 item 3): the columns it sorts by on the server, and its default order.
 * Each order is a unique key over an index (docs/paging.md "Sorting"), so paging by key holds in every
 * order; a cursor carries its order, and a cursor of another order is `400 page.cursorInvalid`.
 */
export interface ListOrder<S extends string> {
  sorts: readonly [S, ...S[]];
  default: { sort: S; dir: SortDirection };
}
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** `sort` (one of the list's orders) and `dir` (`asc` / `desc`): absent, the list's default order. */
export function sortQueryFields<S extends string>(order: ListOrder<S>) {
  return {
    sort: z
      .enum(order.sorts as unknown as [S, ...S[]], { error: 'sort.invalid' })
      .optional()
      .describe(`The column to sort by: ${order.sorts.join(', ')} (default ${order.default.sort})`),
    dir: z
      .enum(SORT_DIRECTIONS, { error: 'sort.invalid' })
      .optional()
      .describe(`asc or desc (default ${order.default.dir} for the default column, else asc)`),
  };
}

/** The order a request asks for: its `sort` and `dir`, else the default (a named column alone sorts ascending). */
export function chosenOrder<S extends string>(
  order: ListOrder<S>,
  query: { sort?: S | undefined; dir?: SortDirection | undefined },
): { sort: S; dir: SortDirection } {
  const sort = query.sort ?? order.default.sort;
  const dir = query.dir ?? (sort === order.default.sort ? order.default.dir : 'asc');
  return { sort, dir };
}

export const keysetPageFields = {
  nextCursor: z.string().nullable().describe('The cursor of the next page (as `after`), null on the last'),
  prevCursor: z
    .string()
    .nullable()
    .describe('The cursor of the previous page (as `before`), null on the first'),
};
