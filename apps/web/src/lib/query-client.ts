import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';

/** How many times a failed read is tried again, at most (network failures and 5xx only). */
export const MAX_RETRIES = 2;

/**
 * Whether a failed query is worth another try: never a refusal (4xx: the same request gets the same
 * answer, and a wrong password must not be counted twice), never an abort; a lost connection (status
 * 0) or a server error (5xx) up to MAX_RETRIES times.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!(error instanceof ApiError)) return false;
  return error.status === 0 || error.status >= 500;
}

/** 0.5 s, 1 s, 2 s … capped at 8 s. */
export const retryDelay = (attempt: number) => Math.min(500 * 2 ** attempt, 8_000);

/**
 * The application's one QueryClient (web/docs: docs/web.md). Reads are cached for 30 s and shared by
 * key; a screen that unmounts aborts its pending reads (every query function passes TanStack's
 * `signal` to the API client); mutations never retry (a payment or a status change is not repeated
 * behind the user's back). No refetch on window focus: a background tab does not renew the session.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The message key of any failure: the server's code for an ApiError, else the generic one. */
export function problemOf(error: unknown): string {
  return error instanceof ApiError ? error.code : 'error.generic';
}
