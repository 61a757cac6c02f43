import {
  type Action,
  emptyObjectSchema,
  fileBytesSchema,
  SECURITY_SCHEMES,
  textAnswerSchema,
  wildcardParamsSchema,
} from '@cardportal/domain';
import fastifySwagger from '@fastify/swagger';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  RouteOptions,
} from 'fastify';
import {
  createJsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendError } from './errors.ts';

/**
 * Every route's contract (docs/api.md "Contracts"): params, query, body and answers declared with the
 * zod schemas of packages/domain. Fastify validates each request part with them before the handler runs
 * (validatorCompiler below), serialises each answer through the schema of its status (the zod
 * serializer of fastify-type-provider-zod: a field the schema lacks never leaves the server), and
 * @fastify/swagger turns them into the OpenAPI 3.1 document served at GET /app/api/openapi.json.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's own answer to a request part its schema refused (the error handler calls it). Without
     * it the answer is `400 request.invalid`.
     */
    invalid?: (error: z.ZodError, request: FastifyRequest, reply: FastifyReply) => unknown;
  }
}

/** A request part its schema refused: Fastify's validation error, carrying the ZodError. */
export class RequestValidationError extends Error {
  statusCode = 400;
  code = 'FST_ERR_VALIDATION';
  readonly validation: {
    keyword: string;
    instancePath: string;
    schemaPath: string;
    message: string;
    params: object;
  }[];
  constructor(
    readonly zodError: z.ZodError,
    readonly validationContext: string,
  ) {
    const first = zodError.issues[0];
    super(`${validationContext}${first ? `/${first.path.join('/')} ${first.message}` : ''}`);
    this.validation = zodError.issues.map((issue) => ({
      keyword: issue.code,
      instancePath: `/${issue.path.join('/')}`,
      schemaPath: `#/${issue.path.join('/')}/${issue.code}`,
      message: issue.message,
      params: {},
    }));
  }
}

/**
 * Validation by the route's zod schema. A missing body or query counts as an empty object, so a call
 * without one is told which fields it lacks (as a `{}` would be). The parsed value (trimmed,
 * defaulted, transformed) replaces the request part.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const input = data == null && (httpPart === 'body' || httpPart === 'querystring') ? {} : data;
    const result = schema.safeParse(input);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error, httpPart ?? 'body') };
  };

/** The error handler's answer to a refused request part: the route's own, else `400 request.invalid`. */
export function answerInvalidRequest(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): unknown {
  const answer = request.routeOptions.config.invalid;
  if (answer && error instanceof RequestValidationError) return answer(error.zodError, request, reply);
  return sendError(reply, 400, 'request.invalid', `Invalid request: ${error.message}`);
}

/** A non-JSON answer: a body of this media type (HTML, text, CSS, a file). */
export const answerOf = (description: string, mediaType: string, schema: z.ZodType = textAnswerSchema) => ({
  description,
  content: { [mediaType]: { schema } },
});

/** An answer without a body (a redirect: the Location header; 204; 304). */
export const emptyAnswer = (description: string) => z.undefined().describe(description);

/**
 * The contract of the file routes a plugin registers (@fastify/static's `prefix*`): their own options
 * take no schema, so it is set as they are added. Call in the plugin's scope before registering it.
 */
export function describeFileRoutes(app: FastifyInstance, prefix: string, description: string): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== `${prefix}*`) return;
    route.schema = {
      params: wildcardParamsSchema,
      querystring: emptyObjectSchema,
      response: {
        200: answerOf(description, '*/*', fileBytesSchema),
        304: emptyAnswer('Not modified (ETag / If-None-Match)'),
      },
    };
  });
}

/** Where the document is served (readable without a session). */
export const OPENAPI_PATH = '/app/api/openapi.json';

/** What the contract check (test/openapi.pglite.test.ts) reads: every route as it was registered. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after registerContracts, as declared (method, URL, schema). */
    contractRoutes: RegisteredRoute[];
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Routes whose callers need a session: the application's API, and the portal calls of a stage. */
const needsSession = (url: string, signedIn: boolean | undefined) =>
  signedIn === true || (url.startsWith('/app/api/') && url !== OPENAPI_PATH && url !== '/app/api/*');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers only a session (of some stage): the document names the session cookie. */
    signedIn?: boolean;
    /** The action an application route needs (http/app-handler.ts): the document's `x-permission`. */
    permission?: Action;
  }
}

/** The description of an answer whose schema is a component (the document's $ref has none). */
const ANSWER_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '4XX': 'Refused: `{ code, message, fieldErrors? }` (docs/api.md)',
};

/**
 * The route as the document shows it: a wildcard `*` becomes the path parameter `{path}`; the security
 * schemes it needs (the session cookie; the CSRF header on every unsafe method); each answer described.
 */
function documentRoute(transform: ReturnType<typeof createJsonSchemaTransform>): typeof transform {
  return (input) => {
    const out = transform(input) as { schema: Record<string, unknown> & { hide?: boolean }; url: string };
    if (out.schema?.hide) return out;
    const { route } = input as unknown as {
      route: { method: string | string[]; config?: { signedIn?: boolean; permission?: Action } };
    };
    const methods = ([] as string[]).concat(route.method);
    const schema = { ...out.schema };
    let url = out.url;
    if (url.endsWith('*')) {
      url = `${url.slice(0, -1)}{path}`;
      const params = schema.params as
        | { properties?: Record<string, unknown>; required?: string[] }
        | undefined;
      if (params?.properties?.['*']) {
        const { '*': wildcard, ...rest } = params.properties;
        schema.params = {
          ...params,
          properties: { ...rest, path: wildcard },
          required: (params.required ?? []).map((name) => (name === '*' ? 'path' : name)),
        };
      }
    }
    const declared = (input.schema?.response ?? {}) as Record<string, unknown>;
    const answers = { ...(schema.response as Record<string, Record<string, unknown>> | undefined) };
    for (const [status, answer] of Object.entries(answers)) {
      if (answer.description || answer.content) continue;
      const own = declared[status];
      const meta = own instanceof z.ZodType ? z.globalRegistry.get(own) : undefined;
      answers[status] = {
        ...answer,
        description: meta?.description ?? ANSWER_DESCRIPTIONS[status.toUpperCase()] ?? 'Answer',
      };
    }
    if (schema.response) schema.response = answers;
    const session = needsSession(input.url, route.config?.signedIn);
    const unsafe = methods.some((method) => UNSAFE.has(method));
    // An unsafe call needs the CSRF token of its session (an anonymous one before sign-in).
    if (session || unsafe) schema.security = [{ session: [], ...(unsafe ? { csrf: [] } : {}) }];
    // What the caller must be allowed to do (packages/domain authorization.ts; docs/authorization.md).
    if (route.config?.permission) schema['x-permission'] = route.config.permission;
    schema.tags = [
      input.url.startsWith('/app/')
        ? 'application'
        : /^\/(healthz|readyz)$/.test(input.url)
          ? 'health'
          : 'portal',
    ];
    return { schema, url };
  };
}

type Operation = { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } };

/**
 * The finished document: a body a call ignores (noBodySchema) is no request body; OpenAPI 3.1 has no
 * QUERY operation (3.2 has: the catch-all's is left out); and only the components something refers to
 * (the type provider emits an input and an output form of each).
 */
function documentObject(input: Parameters<typeof jsonSchemaTransformObject>[0]) {
  const document = jsonSchemaTransformObject(input) as {
    paths?: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, unknown> };
  };
  for (const item of Object.values(document.paths ?? {})) {
    delete item.query;
    for (const operation of Object.values(item)) {
      const media = Object.values(operation.requestBody?.content ?? {});
      if (media.some((m) => m.schema?.['x-no-body'] === true)) delete operation.requestBody;
    }
  }
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(document.paths);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  return document as ReturnType<typeof jsonSchemaTransformObject>;
}

/**
 * Sets up the contracts: the zod validator and serializer, the route collector, and @fastify/swagger.
 * Call before any route is registered; then `openApiRoute` publishes the document.
 */
export async function registerContracts(app: FastifyInstance, info: { version: string }): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes: RegisteredRoute[] = [];
  app.decorate('contractRoutes', routes);
  app.addHook('onRoute', (route) => {
    // HEAD: Fastify's own twin of each GET route (same schema), or a file route's (its GET is listed).
    // The schema as it ends up: a later onRoute hook may set it (describeFileRoutes).
    for (const method of ([] as string[]).concat(route.method)) {
      if (method !== 'HEAD')
        routes.push({
          method,
          url: route.url,
          get schema() {
            return route.schema;
          },
        });
    }
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.1',
      info: {
        title: 'cardportal',
        version: info.version,
        description:
          'The sign-in portal (portal spec §7) and the corporate card application (/app/api). Every 4xx is ' +
          '`{ code, message, fieldErrors? }` unless a call says otherwise; see docs/api.md.',
      },
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    transform: documentRoute(createJsonSchemaTransform({ skipList: [] })),
    transformObject: documentObject,
  });
}

/** `GET /app/api/openapi.json`: the document, readable without a session (it holds no secret). */
export async function openApiRoute(app: FastifyInstance): Promise<void> {
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        querystring: emptyObjectSchema,
        response: { 200: z.record(z.string(), z.unknown()).describe('This OpenAPI 3.1 document') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return app.swagger();
    },
  );
}
