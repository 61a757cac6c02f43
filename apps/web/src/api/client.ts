/** The application's fetch wrapper: same-origin, X-Requested-With, typed failures. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
    signal,
  });
  if (!res.ok) throw new ApiError(res.status, `${url}: ${res.status}`);
  return (await res.json()) as T;
}

export async function getText(url: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'text/plain' },
    signal,
  });
  if (!res.ok) throw new ApiError(res.status, `${url}: ${res.status}`);
  return res.text();
}

export async function exists(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { method: 'HEAD', credentials: 'same-origin' })).ok;
  } catch {
    return false;
  }
}
