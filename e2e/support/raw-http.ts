import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Every header line as received ("Name: value"), so an injected header would show up here. */
  headerLines: string[];
  /** The values of one header, case-insensitive. */
  headers(name: string): string[];
  body: string;
}

/**
 * Sends one HTTP/1.1 request with exactly this request target — no URL normalisation, unlike fetch —
 * so paths like `//host`, `/\host` or raw non-ASCII bytes reach the server as written.
 */
export function rawRequest(
  base: string,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  const method = options.method ?? 'GET';
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  if (options.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(options.body)}`);
  const request = `${lines.join('\r\n')}\r\n\r\n${options.body ?? ''}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.once('connect', () => socket.write(Buffer.from(request, 'utf8')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      resolve({
        status,
        headerLines,
        headers: (name) =>
          headerLines
            .filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
            .map((line) => line.slice(name.length + 1).trim()),
        body: split === -1 ? '' : text.slice(split + 4),
      });
    });
  });
}
