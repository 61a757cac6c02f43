import type { ApiErrorBody, UploadRowProblem } from '@cardportal/domain';

/** Every failed call (network, HTTP status, unreadable body) surfaces as one typed error. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    /** The server's error code (`{ code }`), or `http.{status}` / `network`. */
    readonly code: string,
    message: string,
    /** Field name → message key, from the server's `fieldErrors`. */
    readonly fieldErrors?: Record<string, string>,
    /** An upload's per-row report (`rows: [{ row, field, problem }]`). */
    readonly rows?: UploadRowProblem[],
    /** The whole answer, for refusals that say more (a mass allocation's refused transactions). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type ResponseKind = 'json' | 'text' | 'none';

export interface RequestOptions {
  method?: HttpMethod;
  /** JSON body, serialised here. */
  json?: unknown;
  /** Raw bytes (an upload) with their Content-Type. */
  bytes?: { data: ArrayBuffer; type: string };
  signal?: AbortSignal | undefined;
}

export const CSRF_COOKIE = 'sec-token';
const CSRF_URL = '/sdportal/rest/csrf';

/** Reads a cookie at call time (the server rotates the CSRF cookie when the session changes). */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

const isSafe = (method: HttpMethod) => method === 'GET' || method === 'HEAD';

async function errorFrom(response: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // body unreadable
  }
  try {
    const body = JSON.parse(text) as Partial<ApiErrorBody> & { rows?: unknown };
    if (body && typeof body.code === 'string')
      return new ApiError(
        response.status,
        body.code,
        String(body.message ?? ''),
        body.fieldErrors,
        Array.isArray(body.rows) ? (body.rows as UploadRowProblem[]) : undefined,
        body as Record<string, unknown>,
      );
  } catch {
    // not JSON
  }
  return new ApiError(response.status, `http.${response.status}`, response.statusText);
}

async function send(url: string, options: RequestOptions, kind: ResponseKind, csrf?: string) {
  const method = options.method ?? 'GET';
  const headers = new Headers({
    'X-Requested-With': 'XMLHttpRequest',
    Accept: kind === 'json' ? 'application/json' : 'text/plain, application/json;q=0.9, */*;q=0.1',
  });
  if (csrf) {
    headers.set('X-CSRF-TOKEN', csrf);
    headers.set('X-XSRF-TOKEN', csrf);
  }
  let body: string | ArrayBuffer | null = null;
  if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  } else if (options.bytes) {
    headers.set('Content-Type', options.bytes.type);
    body = options.bytes.data;
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', error instanceof Error ? error.message : 'network error');
  }
  if (!response.ok) throw await errorFrom(response);
  if (kind === 'none' || method === 'HEAD' || response.status === 204) return undefined;
  if (kind === 'text') return response.text();
  try {
    return await response.json();
  } catch {
    throw new ApiError(response.status, 'response.invalid', 'invalid JSON answer');
  }
}

async function csrfToken(signal: AbortSignal | undefined, refresh = false): Promise<string | undefined> {
  const current = refresh ? undefined : readCookie(CSRF_COOKIE);
  if (current) return current;
  await send(CSRF_URL, { signal }, 'none');
  return readCookie(CSRF_COOKIE);
}

/**
 * The application's one fetch wrapper: same-origin, `X-Requested-With` always, the CSRF headers on
 * every non-GET/HEAD request (retried once with a fresh token when the server answers csrf.invalid).
 */
async function request(url: string, options: RequestOptions, kind: ResponseKind): Promise<unknown> {
  if (isSafe(options.method ?? 'GET')) return send(url, options, kind);
  const token = await csrfToken(options.signal);
  try {
    return await send(url, options, kind, token);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403 || error.code !== 'csrf.invalid') throw error;
    return send(url, options, kind, await csrfToken(options.signal, true));
  }
}

export function requestJson<T>(url: string, options: RequestOptions = {}): Promise<T> {
  return request(url, options, 'json') as Promise<T>;
}

/** Sends raw bytes (a file's contents) with the CSRF headers, answering JSON. */
export function uploadBytes<T>(
  url: string,
  data: ArrayBuffer,
  type: string,
  signal?: AbortSignal,
): Promise<T> {
  return requestJson<T>(url, { method: 'POST', bytes: { data, type }, signal });
}

export async function requestVoid(url: string, options: RequestOptions = {}): Promise<void> {
  await request(url, options, 'none');
}

export function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return requestJson<T>(url, { signal });
}

export function getText(url: string, signal?: AbortSignal): Promise<string> {
  return request(url, { signal }, 'text') as Promise<string>;
}

export async function exists(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { method: 'HEAD', credentials: 'same-origin' })).ok;
  } catch {
    return false;
  }
}

/** A URL with its query: the parameters that have a value, encoded (empty and undefined left out). */
/** A list's order (docs/paging.md "Sorting"): absent, the list's default. */
export interface SortParams {
  sort?: string | undefined;
  dir?: 'asc' | 'desc' | undefined;
}

/** Puts a list's order on a query (nothing for the default order). */
export function setSort(query: URLSearchParams, params: SortParams): void {
  if (params.sort) query.set('sort', params.sort);
  if (params.dir) query.set('dir', params.dir);
}

export function withQuery(url: string, params: object): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${url}?${text}` : url;
}
