/**
 * The contract of every route (DESIGN §7 "Contracts", docs/api.md): each declares what it takes and what
 * it answers with zod schemas, and GET /app/api/openapi.json publishes them as a valid OpenAPI 3.1
 * document, to anyone, without a secret in it.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPENAPI_PATH, type RegisteredRoute } from '../src/http/contract.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';
import { routesOf } from './support/routes.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ DEMO: '1' });
}, 120_000);
afterAll(() => ctx?.close());

const isZod = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

/** A response entry: a zod schema, or `{ content: { type: { schema } } }` of zod schemas. */
function isAnswer(value: unknown): boolean {
  if (isZod(value)) return true;
  const content = (value as { content?: Record<string, { schema?: unknown }> } | null)?.content;
  return (
    content !== undefined &&
    Object.keys(content).length > 0 &&
    Object.values(content).every((media) => isZod(media.schema))
  );
}

/** The path parameters of a route URL: `:name` segments and a trailing wildcard `*`. */
function pathParams(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
  return url.endsWith('*') ? [...names, '*'] : names;
}

/** What a route lacks: one line per missing or mistaken part of its contract. */
export function contractProblems(route: RegisteredRoute): string[] {
  const where = `${route.method} ${route.url}`;
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  const expected = pathParams(route.url);
  if (expected.length > 0) {
    if (!isZod(schema.params)) problems.push(`${where}: no params schema`);
    else {
      const shape = (schema.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      const declared = Object.keys(shape).sort();
      if (declared.join() !== [...expected].sort().join())
        problems.push(`${where}: params ${declared.join()} ≠ the path's ${expected.join()}`);
    }
  } else if (schema.params !== undefined) problems.push(`${where}: params schema without path parameters`);
  if (['POST', 'PUT', 'PATCH'].includes(route.method) && !isZod(schema.body))
    problems.push(`${where}: no body schema`);
  if (route.method === 'GET' && !isZod(schema.querystring)) problems.push(`${where}: no querystring schema`);
  for (const part of ['params', 'querystring', 'body', 'headers'] as const) {
    if (schema[part] !== undefined && !isZod(schema[part]))
      problems.push(`${where}: ${part} is not a zod schema`);
  }
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const statuses = Object.keys(response);
  if (statuses.length === 0) problems.push(`${where}: no response schema`);
  for (const status of statuses) {
    if (!isAnswer(response[status])) problems.push(`${where}: response ${status} is not a zod schema`);
  }
  return problems;
}

describe('route contracts', () => {
  it('collects every route the router serves', () => {
    const collected = new Set(ctx.app.contractRoutes.map((r) => `${r.method} ${r.url}`));
    const served = routesOf(ctx.app).flatMap((r) =>
      r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.path}`),
    );
    expect(served.length).toBeGreaterThan(80);
    expect(served.filter((route) => !collected.has(route))).toEqual([]);
  });

  it('every route declares its params, query, body and answers with zod schemas', () => {
    const problems = ctx.app.contractRoutes.flatMap(contractProblems);
    expect(problems).toEqual([]);
  });

  it('the check finds a route without a contract', () => {
    expect(contractProblems({ method: 'POST', url: '/app/api/x/:id', schema: undefined })).toEqual([
      'POST /app/api/x/:id: no params schema',
      'POST /app/api/x/:id: no body schema',
      'POST /app/api/x/:id: no response schema',
    ]);
    expect(
      contractProblems({
        method: 'GET',
        url: '/app/api/x/:id',
        schema: {
          params: z.object({ other: z.string() }),
          querystring: { type: 'object' },
          response: { 200: { type: 'object' } },
        },
      }),
    ).toEqual([
      "GET /app/api/x/:id: params other ≠ the path's id",
      'GET /app/api/x/:id: no querystring schema',
      'GET /app/api/x/:id: querystring is not a zod schema',
      'GET /app/api/x/:id: response 200 is not a zod schema',
    ]);
  });
});

describe('GET /app/api/openapi.json', () => {
  let document: Record<string, unknown>;
  let text: string;
  beforeAll(async () => {
    const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    text = res.body;
    document = res.json();
  });

  it('is served without a session', async () => {
    const client = new TestClient(ctx.app, '10.90.0.1');
    const res = await client.get(OPENAPI_PATH);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(document);
    // The application's other calls still want one.
    expect((await client.get('/app/api/me')).statusCode).toBe(401);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator({ strict: false });
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route the router serves', () => {
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const documented = new Set(
      Object.entries(paths).flatMap(([path, item]) =>
        Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const asDocumented = (r: RegisteredRoute) =>
      `${r.method} ${r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}')}`;
    const missing = ctx.app.contractRoutes
      .filter((r) => r.method !== 'QUERY') // OpenAPI 3.1 has no QUERY operation
      .map(asDocumented)
      .filter((route) => !documented.has(route));
    expect(missing).toEqual([]);
    expect(documented.size).toBeGreaterThan(80);
  });

  it('names the session cookie and the CSRF header as security schemes', () => {
    const schemes = (document.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    expect(schemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'cpsid' });
    expect(schemes.csrf).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-CSRF-TOKEN' });
    const paths = document.paths as Record<string, Record<string, { security?: unknown }>>;
    expect(paths['/app/api/users/{userId}']?.patch?.security).toEqual([{ session: [], csrf: [] }]);
    expect(paths['/app/api/me']?.get?.security).toEqual([{ session: [] }]);
    expect(paths['/sdportal/rest/cobrand/{name}']?.get?.security).toBeUndefined();
  });

  it('holds no secret: no server key, password, session or CSRF token, no secret-looking default', async () => {
    const client = new TestClient(ctx.app, '10.90.0.2');
    expect((await client.login('active01', DEMO_PASSWORD)).statusCode).toBe(200);
    const { hmac, tokenKey } = ctx.services.secrets;
    const secrets = [
      DEMO_PASSWORD,
      hmac.toString('base64'),
      hmac.toString('hex'),
      tokenKey.toString('base64'),
      tokenKey.toString('hex'),
      client.cookies.get('cpsid'),
      client.cookies.get('sec-token'),
    ];
    for (const secret of secrets) {
      expect(secret).toBeTruthy();
      expect(text.includes(secret as string), 'a secret in the document').toBe(false);
    }
    // Every default, example and constant in the document: none looks like a credential.
    const found: { key: string; value: unknown }[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item);
        return;
      }
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (['default', 'example', 'examples', 'const'].includes(key)) found.push({ key, value });
        walk(value);
      }
    };
    walk(document);
    const secretLooking = found.filter(({ value }) =>
      JSON.stringify(value).match(/pass(word)?|secret|token|key|pin|[A-Za-z0-9+/_-]{16,}/i),
    );
    expect(secretLooking).toEqual([]);
  });
});
