import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, getJson } from '../api/client.ts';
import { mockFetch } from '../test/support.tsx';
import { createQueryClient, MAX_RETRIES, problemOf, shouldRetry } from './query-client.ts';

afterEach(cleanup);

function Reader({ url }: { url: string }) {
  const query = useQuery({
    queryKey: ['t', url],
    queryFn: ({ signal }) => getJson<{ v: number }>(url, signal),
  });
  return (
    <p>
      {query.isError ? `failed ${problemOf(query.error)}` : query.data ? `value ${query.data.v}` : 'wait'}
    </p>
  );
}

describe('the QueryClient rules', () => {
  it('retries a lost connection or a server error, never a refusal nor anything else', () => {
    expect(shouldRetry(0, new ApiError(0, 'network', ''))).toBe(true);
    expect(shouldRetry(1, new ApiError(503, 'http.503', ''))).toBe(true);
    expect(shouldRetry(MAX_RETRIES, new ApiError(503, 'http.503', ''))).toBe(false);
    for (const status of [400, 401, 403, 404, 409, 429])
      expect(shouldRetry(0, new ApiError(status, 'x', '')), String(status)).toBe(false);
    expect(shouldRetry(0, new TypeError('bug'))).toBe(false);
    expect(problemOf(new ApiError(403, 'audit.forbidden', ''))).toBe('audit.forbidden');
    expect(problemOf(new Error('x'))).toBe('error.generic');
  });

  it('asks once more after a 5xx, and only once after a 4xx', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let n = 0;
    const calls = mockFetch((call) => {
      if (call.url === '/flaky') {
        n += 1;
        return n === 1 ? { status: 502, body: { code: 'http.502' } } : { body: { v: 7 } };
      }
      if (call.url === '/refused') return { status: 403, body: { code: 'x.forbidden', message: '' } };
      return undefined;
    });
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <Reader url="/flaky" />
        <Reader url="/refused" />
      </QueryClientProvider>,
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await waitFor(() => expect(screen.getByText('value 7')).toBeDefined());
    expect(screen.getByText('failed x.forbidden')).toBeDefined();
    expect(calls.filter((c) => c.url === '/flaky')).toHaveLength(2);
    expect(calls.filter((c) => c.url === '/refused')).toHaveLength(1);
    vi.useRealTimers();
  });

  it('aborts a pending read when its screen goes away', async () => {
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        if (init.signal) signals.push(init.signal);
        return new Promise<Response>((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }),
    );
    const client = createQueryClient();
    const view = render(
      <QueryClientProvider client={client}>
        <Reader url="/slow" />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(signals).toHaveLength(1));
    view.unmount();
    await waitFor(() => expect(signals[0]?.aborted).toBe(true));
  });
});
