import type { FastifyInstance } from 'fastify';

/** Every route of the app with its methods, from Fastify's route tree (as attacks/csrf.test.ts reads it). */
export function routesOf(app: FastifyInstance): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)── (.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = Math.floor((m[1]?.length ?? 0) / 4);
    const parent = depth === 0 ? '' : (stack[depth - 1] ?? '');
    const segment = m[2] ?? '';
    const full =
      parent === ''
        ? segment
        : parent.endsWith('/') || /^[/.\-_]/.test(segment)
          ? parent + segment
          : `${parent}/${segment}`;
    stack[depth] = full;
    stack.length = depth + 1;
    out.push({ path: full, methods: (m[3] ?? '').split(', ') });
  }
  return out;
}

/** `METHOD /path` of every endpoint under a prefix (HEAD and OPTIONS, which Fastify adds, left out). */
export function endpointsUnder(app: FastifyInstance, prefix: string): string[] {
  return routesOf(app)
    .filter((r) => r.path.startsWith(prefix))
    .flatMap((r) => r.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').map((m) => `${m} ${r.path}`))
    .sort();
}
