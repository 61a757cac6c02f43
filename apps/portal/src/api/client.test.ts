import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, stubFetch, text } from '../testing/portal.tsx';
import { ApiError, requestJson, requestText, requestVoid } from './client.ts';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

beforeEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('api client', () => {
  it('sends X-Requested-With and no CSRF headers on GET', async () => {
    const { calls } = stubFetch({ 'GET /x': json({ a: 1 }) });
    setCookie('sec-token=abc; Path=/');
    expect(await requestJson('/x')).toEqual({ a: 1 });
    expect(calls[0]?.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(calls[0]?.headers.get('X-CSRF-TOKEN')).toBeNull();
  });

  it('reads sec-token at call time and sends it as both CSRF headers', async () => {
    const { calls } = stubFetch({ 'POST /x': json({}) });
    setCookie('sec-token=first; Path=/');
    await requestJson('/x', { method: 'POST', json: { a: 1 } });
    setCookie('sec-token=second; Path=/');
    await requestJson('/x', { method: 'POST', json: { a: 1 } });
    expect(calls.map((c) => [c.headers.get('X-CSRF-TOKEN'), c.headers.get('X-XSRF-TOKEN')])).toEqual([
      ['first', 'first'],
      ['second', 'second'],
    ]);
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.body).toBe('{"a":1}');
  });

  it('fetches /sdportal/rest/csrf first when the cookie is missing', async () => {
    const { calls } = stubFetch({
      'GET /sdportal/rest/csrf': () => {
        setCookie('sec-token=fresh; Path=/');
        return json({ ok: true });
      },
      'PUT /log': new Response(null, { status: 204 }),
    });
    await requestVoid('/log', { method: 'PUT', json: 'x' });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /sdportal/rest/csrf', 'PUT /log']);
    expect(calls[1]?.headers.get('X-XSRF-TOKEN')).toBe('fresh');
  });

  it('retries once with a fresh token on 403 csrf.invalid', async () => {
    let posts = 0;
    const { calls } = stubFetch({
      'GET /sdportal/rest/csrf': () => {
        setCookie('sec-token=renewed; Path=/');
        return json({ ok: true });
      },
      'POST /x': () =>
        ++posts === 1 ? json({ code: 'csrf.invalid', message: 'bad token' }, 403) : text('ok'),
    });
    setCookie('sec-token=stale; Path=/');
    expect(await requestText('/x', { method: 'POST' })).toBe('ok');
    expect(calls.map((c) => c.headers.get('X-CSRF-TOKEN'))).toEqual(['stale', null, 'renewed']);
  });

  it('sends form bodies url-encoded', async () => {
    const { calls } = stubFetch({ 'POST /f': text('done') });
    setCookie('sec-token=t; Path=/');
    await requestText('/f', { method: 'POST', form: new URLSearchParams({ a: 'b c', d: '&' }) });
    expect(calls[0]?.headers.get('Content-Type')).toContain('application/x-www-form-urlencoded');
    expect(calls[0]?.body).toBe('a=b+c&d=%26');
  });

  it('throws ApiError with the JSON error shape', async () => {
    stubFetch({ 'GET /e': json({ code: 'cobrand.not_found', message: 'Unknown' }, 404) });
    const error = await requestJson('/e').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'cobrand.not_found', message: 'Unknown' });
  });

  it('throws ApiError for a text error and for a network failure', async () => {
    stubFetch({ 'GET /t': text('Login failed', 401) });
    await expect(requestText('/t')).rejects.toMatchObject({
      status: 401,
      code: 'http.401',
      message: 'Login failed',
    });
    stubFetch({ 'GET /n': () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(requestText('/n')).rejects.toMatchObject({ status: 0, code: 'network' });
  });

  it('passes the AbortSignal through and rethrows aborts as is', async () => {
    const { calls } = stubFetch({ 'GET /a': json({}) });
    const controller = new AbortController();
    controller.abort();
    await expect(requestJson('/a', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(calls).toHaveLength(1);
  });
});
