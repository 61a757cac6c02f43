import type { ApiErrorBody } from '@cardportal/domain';
import { CSRF_COOKIE, readCookie } from '../lib/cookies.ts';

/** Every failed call (network, HTTP status, bad body) surfaces as one typed error. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    /** The HTTP status text (e.g. the token service's "Invalid PIN"); '' when none. */
    readonly statusText: string = '',
    /** The parsed JSON error body, when there was one (credential services add `errors[0]`). */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/**
 * The first entry's code of a credential service's error (`errors[0].code`, or `error[0].code` as the
 * change-password service also sends), else the common `code`. Undefined when the call never got an
 * answer or the answer was not one of our JSON errors.
 */
export function serviceErrorCode(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status === 0) return undefined;
  const body = error.body;
  if (body && typeof body === 'object') {
    for (const listName of ['errors', 'error'] as const) {
      const list = (body as Record<string, unknown>)[listName];
      const first: unknown = Array.isArray(list) ? list[0] : undefined;
      if (first && typeof first === 'object') {
        const code = (first as Record<string, unknown>).code;
        if (typeof code === 'string') return code;
      }
    }
    return error.code;
  }
  return undefined;
}

/** The HTTP status of a failed call; 0 for a network failure or anything that is not an ApiError. */
export function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
type ResponseKind = 'json' | 'text' | 'none';

export interface RequestOptions {
  method?: HttpMethod;
  /** JSON body (serialised here), or a form body sent as application/x-www-form-urlencoded. */
  json?: unknown;
  form?: URLSearchParams;
  signal?: AbortSignal | undefined;
  /** Sends Cache-Control: no-cache (spec §7 marks some calls so). */
  noCache?: boolean;
}

const CSRF_URL = '/sdportal/rest/csrf';

const isSafeMethod = (method: HttpMethod) => method === 'GET' || method === 'HEAD';

/**
 * The sec-token cookie, read right before the request (the server rotates it whenever the session
 * changes). When it is missing, `GET /sdportal/rest/csrf` sets it first.
 */
async function csrfToken(signal: AbortSignal | undefined, refresh = false): Promise<string | undefined> {
  const current = refresh ? undefined : readCookie(CSRF_COOKIE);
  if (current) return current;
  await send(CSRF_URL, { signal }, 'none');
  return readCookie(CSRF_COOKIE);
}

async function errorFrom(response: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // body unreadable
  }
  try {
    const body = JSON.parse(text) as Partial<ApiErrorBody>;
    if (body && typeof body.code === 'string') {
      return new ApiError(
        response.status,
        body.code,
        String(body.message ?? ''),
        body.fieldErrors,
        response.statusText,
        body,
      );
    }
  } catch {
    // not JSON: the server answered text (e.g. /heracles/login's "Login failed")
  }
  return new ApiError(
    response.status,
    `http.${response.status}`,
    text.slice(0, 200) || response.statusText,
    undefined,
    response.statusText,
  );
}

async function send(
  url: string,
  options: RequestOptions,
  kind: ResponseKind,
  csrf?: string,
): Promise<unknown> {
  const method = options.method ?? 'GET';
  const headers = new Headers({
    'X-Requested-With': 'XMLHttpRequest',
    Accept: kind === 'json' ? 'application/json' : 'text/plain, application/json;q=0.9, */*;q=0.1',
  });
  if (options.noCache) headers.set('Cache-Control', 'no-cache');
  if (csrf) {
    headers.set('X-CSRF-TOKEN', csrf);
    headers.set('X-XSRF-TOKEN', csrf);
  }
  let body: BodyInit | undefined;
  if (options.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded;charset=UTF-8');
    body = options.form.toString();
  } else if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  }

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body ?? null,
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

/**
 * One typed fetch wrapper for every call of the portal: `X-Requested-With` always, CSRF headers on
 * non-GET/HEAD requests (retried once with a fresh token when the server answers 403 csrf.invalid).
 */
async function request(url: string, options: RequestOptions, kind: ResponseKind): Promise<unknown> {
  const method = options.method ?? 'GET';
  if (isSafeMethod(method)) return send(url, options, kind);
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

export function requestText(url: string, options: RequestOptions = {}): Promise<string> {
  return request(url, options, 'text') as Promise<string>;
}

export async function requestVoid(url: string, options: RequestOptions = {}): Promise<void> {
  await request(url, options, 'none');
}
