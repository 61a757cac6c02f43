/**
 * Paging by key at scale (issue 21 item 3, DESIGN §7, docs/paging.md): the audit trail — the one list
 * with no "Result set is too large" cap, so the one a user can page deep into — filled to 1,000,000
 * events in PostgreSQL (two events share each timestamp, so the id breaks ties). Measured through the
 * product's own repository functions (the SQL the route runs), each repeated and alternated:
 *  - the first page, a page 90 % deep by `after` and by `before` (kernel/paging.ts keysetPage);
 *  - the same deep page by OFFSET (what the list did before), and count(*) against the capped count;
 *  - the plan of the deep page (EXPLAIN ANALYZE): an index scan of audit_events_at_id_idx, no sort;
 *  - that the deep page by key holds exactly the rows OFFSET finds at that depth.
 */
import { randomBytes } from 'node:crypto';
import type { CallerScope } from '@cardportal/domain';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../apps/server/src/db/schema.ts';
import { encodeCursor } from '../apps/server/src/kernel/paging.ts';
import { countAudit, pageOfAudit } from '../apps/server/src/modules/audit/repository.ts';
import { type Budget, type Effort, POSTGRES_ADMIN_URL, percentile, root, type Section } from './lib.ts';

const PLANS: Record<Effort, { events: number; repeats: number }> = {
  smoke: { events: 3_000, repeats: 3 },
  quick: { events: 200_000, repeats: 10 },
  full: { events: 1_000_000, repeats: 30 },
};
const PAGE = 50;
const DAY = 86_400_000;
const SYSTEM_ADMIN: CallerScope = { type: 'Z' };

const ms = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;
const round = (x: number) => Math.round(x * 100) / 100;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

export async function pagingBench(effort: Effort): Promise<Section> {
  const plan = PLANS[effort];
  const name = `cp_bench_paging_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    // The statements the repository sends, for EXPLAIN.
    const sent: { sql: string; params: unknown[] }[] = [];
    const db = drizzle(client, {
      schema,
      logger: { logQuery: (sql, params) => void sent.push({ sql, params }) },
    });
    await migrate(db, { migrationsFolder: `${root}/apps/server/drizzle` });
    const fillStarted = process.hrtime.bigint();
    await client.query(
      `insert into audit_events (at, event, actor_user_id, entity, entity_id)
       select date_trunc('second', now()) - ((g / 2) % 2500000) * interval '1 second',
         'user.modified', 'admin01', 'user', 'u' || g
       from generate_series(1, $1::int) g`,
      [plan.events],
    );
    await client.query('vacuum analyze audit_events');
    const fillMs = ms(fillStarted);

    const to = new Date(Date.now() + DAY);
    const from = new Date(to.getTime() - 30 * DAY);
    const depth = Math.floor(plan.events * 0.9);
    // The key of the row at that depth, as the cursor of the page before it would carry it.
    const { rows: keyRows } = await client.query(
      `select at::text as at, id from audit_events where at >= $1 and at < $2
       order by at desc, id desc offset $3 limit 1`,
      [from, to, depth - 1],
    );
    const key = keyRows[0] as { at: string; id: number | string } | undefined;
    if (!key) throw new Error('no row at the measured depth');
    const cursor = encodeCursor('audit', [key.at, Number(key.id)]);

    const first = () => pageOfAudit(db, SYSTEM_ADMIN, from, to, {}, { limit: PAGE });
    const deep = () => pageOfAudit(db, SYSTEM_ADMIN, from, to, {}, { after: cursor, limit: PAGE });
    const deepBack = () => pageOfAudit(db, SYSTEM_ADMIN, from, to, {}, { before: cursor, limit: PAGE });
    const byOffset = () =>
      client.query(
        `select id from audit_events where at >= $1 and at < $2 order by at desc, id desc offset $3 limit $4`,
        [from, to, depth, PAGE + 1],
      );
    const countAll = () =>
      client.query(`select count(*)::int from audit_events where at >= $1 and at < $2`, [from, to]);
    const capped = () => countAudit(db, SYSTEM_ADMIN, from, to, {}, 1000);

    // Correctness first: the page by key is the page OFFSET finds there.
    const deepRows = (await deep()).rows.map((r) => r.id);
    const offsetRows = (await byOffset()).rows.slice(0, PAGE).map((r) => Number(r.id));
    const sameRows = JSON.stringify(deepRows) === JSON.stringify(offsetRows);

    const runs: Record<string, () => Promise<unknown>> = {
      first,
      deep,
      deepBack,
      byOffset,
      countAll,
      capped,
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
    for (let i = 0; i < plan.repeats; i++) {
      for (const [k, run] of Object.entries(runs)) {
        const started = process.hrtime.bigint();
        await run();
        times[k]?.push(ms(started));
      }
    }
    const p50 = (k: string) => round(percentile(times[k] ?? [], 50));
    const p95 = (k: string) => round(percentile(times[k] ?? [], 95));

    sent.length = 0;
    await deep();
    const statement = sent.at(-1);
    if (!statement) throw new Error('the deep page sent no statement');
    const { rows: explained } = await client.query(
      `explain (analyze, format json) ${statement.sql}`,
      statement.params,
    );
    const root0 = (explained[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan;
    const nodes = root0 ? nodesOf(root0) : [];
    const usesIndex = nodes.some(
      (n) => n['Node Type'].startsWith('Index') && n['Index Name'] === 'audit_events_at_id_idx',
    );
    const sorts = nodes.some((n) => n['Node Type'] === 'Sort');
    const planText = nodes
      .map((n) => n['Node Type'] + (n['Index Name'] ? ` ${n['Index Name']}` : ''))
      .join(' → ');

    const deepBound = 3 * p50('first') + 5;
    const budgets: Budget[] = [
      {
        name: 'the deep page by key is the page OFFSET finds at that depth',
        ok: sameRows,
        detail: sameRows
          ? `${PAGE} rows, same ids`
          : `by key ${deepRows.slice(0, 3)}…, by OFFSET ${offsetRows.slice(0, 3)}…`,
      },
      {
        name: `a page ${depth.toLocaleString('en')} rows deep costs what the first does (p50 ≤ 3 × first + 5 ms)`,
        ok: p50('deep') <= deepBound && p50('deepBack') <= deepBound,
        detail: `first ${p50('first')} ms, deep after ${p50('deep')} ms, deep before ${p50('deepBack')} ms (bound ${round(deepBound)} ms)`,
      },
      {
        name: 'the deep page reads audit_events_at_id_idx, no sort',
        ok: usesIndex && !sorts,
        detail: planText,
      },
    ];
    return {
      name: 'paging',
      figures: {
        events: plan.events,
        depth,
        repeats: plan.repeats,
        fillMs: Math.round(fillMs),
        ms: Object.fromEntries(Object.keys(runs).map((k) => [k, { p50: p50(k), p95: p95(k) }])),
        plan: planText,
        sameRows,
      },
      table: [
        `audit events: ${plan.events.toLocaleString('en')} (filled in ${Math.round(fillMs)} ms), page ${PAGE}, ${plan.repeats} runs each`,
        `first page by key:            p50 ${p50('first')} ms, p95 ${p95('first')} ms`,
        `page ${depth.toLocaleString('en')} rows deep (after):  p50 ${p50('deep')} ms, p95 ${p95('deep')} ms`,
        `page ${depth.toLocaleString('en')} rows deep (before): p50 ${p50('deepBack')} ms, p95 ${p95('deepBack')} ms`,
        `same depth by OFFSET (before): p50 ${p50('byOffset')} ms, p95 ${p95('byOffset')} ms`,
        `count(*) of the range (before): p50 ${p50('countAll')} ms; count capped at 1,000: p50 ${p50('capped')} ms`,
        `plan of the deep page: ${planText}`,
      ],
      budgets,
    };
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
