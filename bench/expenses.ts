/**
 * Expense reports at scale (issue 17, DESIGN §7 "every list pages by key over an index a benchmark
 * proves"): one company with 1,000,000 reports (full; 200,000 quick) of 2,000 cardholders in every
 * state, a fifth of them submitted and waiting for one of 50 approvers, in PostgreSQL. Measured through
 * the product's own ExpenseReportService (the SQL the routes run), each list's first page and a page 90 %
 * deep by key:
 *  - a cardholder's reports (expense_reports_owner_idx),
 *  - the company's reports, all and in one status (expense_reports_company_idx, …_company_status_idx),
 *  - an approver's queue (expense_report_pending_queue_idx);
 * the plans (EXPLAIN ANALYZE of the statement sent): no sequential scan and no sort of the table;
 * and that the deep page by key holds exactly the rows OFFSET finds at that depth.
 * Budget: every page p95 ≤ 50 ms.
 */
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/client.ts';
import * as schema from '../apps/server/src/db/schema.ts';
import type { Caller } from '../apps/server/src/http/caller.ts';
import { encodeCursor } from '../apps/server/src/kernel/paging.ts';
import { ExpenseReportService } from '../apps/server/src/modules/expenses/reports.ts';
import { type Budget, type Effort, POSTGRES_ADMIN_URL, percentile, root, type Section } from './lib.ts';

const PLANS: Record<Effort, { reports: number; holders: number; repeats: number }> = {
  smoke: { reports: 3_000, holders: 20, repeats: 2 },
  quick: { reports: 200_000, holders: 2_000, repeats: 10 },
  full: { reports: 1_000_000, holders: 2_000, repeats: 30 },
};
const APPROVERS = 50;
const PAGE = 25;
const BUDGET_MS = 50;

const ms = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;
const round = (x: number) => Math.round(x * 100) / 100;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}
/** A sort may order what one cardholder's own reports are at most (a few hundred), never a company's. */
const SMALL_SORT = 1_000;
const sortedRows = (n: PlanNode): number => n.Plans?.[0]?.['Actual Rows'] ?? 0;
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

export async function expensesBench(effort: Effort): Promise<Section> {
  const plan = PLANS[effort];
  const name = `cp_bench_expenses_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    const sent: { sql: string; params: unknown[] }[] = [];
    const db = drizzle(client, {
      schema,
      logger: { logQuery: (sql, params) => void sent.push({ sql, params }) },
    });
    await migrate(db, { migrationsFolder: `${root}/apps/server/drizzle` });
    const fillStarted = process.hrtime.bigint();
    const issuerId = Number(
      (
        await client.query(
          `insert into issuers (number, name1, ica, bank_number) values ('9001', 'Bench Bank', '99999', '0001') returning id`,
        )
      ).rows[0].id,
    );
    const companyId = Number(
      (
        await client.query(
          `insert into companies (issuer_id, number, name1) values ($1, '900001', 'Bench Co') returning id`,
          [issuerId],
        )
      ).rows[0].id,
    );
    await client.query(
      `insert into cardholders (company_id, name1, name2) select $1, 'Holder', 'No ' || g from generate_series(1, $2::int) g`,
      [companyId, plan.holders],
    );
    // Cardholders' users (type A), the approvers (type O) and one administrator (type C).
    await client.query(
      `insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name, last_name, cobrand,
         password_hash, user_type, company_id, cardholder_id)
       select 'holder' || c.id, 'holder' || c.id, 'holder' || c.id, 'holder' || c.id, '', 'Holder', c.name2,
         'cardportal', 'x', 'A', $1, c.id from cardholders c where c.company_id = $1`,
      [companyId],
    );
    await client.query(
      `insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name, last_name, cobrand,
         password_hash, user_type, company_id)
       select 'approver' || g, 'approver' || g, 'approver' || g, 'approver' || g, '', 'Approver', 'No ' || g,
         'cardportal', 'x', 'O', $1 from generate_series(1, ${APPROVERS}) g`,
      [companyId],
    );
    const adminPk = Number(
      (
        await client.query(
          `insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name, last_name, cobrand,
             password_hash, user_type, company_id)
           values ('benchadmin', 'benchadmin', 'benchadmin', 'benchadmin', '', 'Bench', 'Admin', 'cardportal', 'x', 'C', $1)
           returning id`,
          [companyId],
        )
      ).rows[0].id,
    );
    // Reports: owners round-robin, a status each (a fifth Submitted), changes spread over a year with
    // ties (two reports share each second), so the id breaks them.
    await client.query(
      `insert into expense_reports (company_id, owner_pk, cardholder_id, name, currency, status, total_minor,
         line_count, round, submitted_at, created_at, updated_at)
       select $1, h.pks[1 + g % h.n], h.chs[1 + g % h.n], 'Report ' || g, 'USD',
         (array['Saved','Submitted','Approved','SentBack','Held'])[1 + g % 5],
         (g::bigint * 7919) % 500000, 1 + g % 9, case when g % 5 = 0 then 0 else 1 end,
         case when g % 5 = 0 then null else timestamptz '2026-01-01' + (g / 2) * interval '1 second' end,
         timestamptz '2026-01-01' + (g / 2) * interval '1 second',
         timestamptz '2026-01-01' + (g / 2) * interval '1 second'
       from generate_series(1, $2::int) g,
         (select array_agg(id order by id) as pks, array_agg(cardholder_id order by id) as chs, count(*)::int as n
            from users where company_id = $1 and user_type = 'A') h`,
      [companyId, plan.reports],
    );
    await client.query(
      `insert into expense_report_pending (user_pk, report_id, since)
       select a.pks[1 + (r.id / 5) % ${APPROVERS}], r.id, r.submitted_at
       from expense_reports r,
         (select array_agg(id order by id) as pks from users where company_id = $1 and user_type = 'O') a
       where r.status = 'Submitted'`,
      [companyId],
    );
    await client.query('vacuum analyze expense_reports');
    await client.query('vacuum analyze expense_report_pending');
    await client.query('vacuum analyze users');
    const fillMs = ms(fillStarted);

    const { rows: people } = await client.query(
      `select (select min(id) from users where user_type = 'A' and company_id = $1) as holder,
              (select cardholder_id from users where id = (select min(id) from users where user_type = 'A' and company_id = $1)) as cardholder,
              (select min(id) from users where user_type = 'O' and company_id = $1) as approver`,
      [companyId],
    );
    const base = {
      locale: 'en_US',
      cobrand: 'cardportal',
      profile: {} as Caller['profile'],
      permissions: new Set() as Caller['permissions'],
      accessedBy: null,
      companyId,
      issuerId,
    } as const;
    const holder: Caller = {
      ...base,
      type: 'A',
      userPk: Number(people[0].holder),
      userId: 'holder',
      cardholderId: Number(people[0].cardholder),
    };
    const approver: Caller = { ...base, type: 'O', userPk: Number(people[0].approver), userId: 'approver' };
    const companyAdmin: Caller = { ...base, type: 'C', userPk: adminPk, userId: 'benchadmin' };
    const service = new ExpenseReportService(db as unknown as Db);

    // A cursor 90 % deep in a list: the key of the row OFFSET finds there (what the page continues after).
    const deepCursor = async (list: string, where: string, params: unknown[], order: string, key: string) => {
      const { rows } = await client.query(`select count(*)::int as n from ${where}`, params);
      const depth = Math.floor(rows[0].n * 0.9);
      const { rows: at } = await client.query(
        `select ${key} from ${where} order by ${order} offset $${params.length + 1} limit 1`,
        [...params, depth],
      );
      const row = at[0] as { k: string; id: number };
      return { cursor: encodeCursor(list, [row.k, Number(row.id)]), depth, total: rows[0].n as number };
    };
    const reports = 'expense_reports';
    const mineDeep = await deepCursor(
      'expenseReports.mine',
      `${reports} where owner_pk = $1`,
      [holder.userPk],
      'updated_at desc, id desc',
      'updated_at::text as k, id',
    );
    const companyDeep = await deepCursor(
      'expenseReports.company',
      `${reports} where company_id = $1`,
      [companyId],
      'updated_at desc, id desc',
      'updated_at::text as k, id',
    );
    const statusDeep = await deepCursor(
      'expenseReports.company',
      `${reports} where company_id = $1 and status = 'Approved'`,
      [companyId],
      'updated_at desc, id desc',
      'updated_at::text as k, id',
    );
    const queueDeep = await deepCursor(
      'expenseReports.queue',
      'expense_report_pending where user_pk = $1',
      [approver.userPk],
      'since asc, report_id asc',
      'since::text as k, report_id as id',
    );

    const runs: Record<string, () => Promise<{ rows: { id: number }[] }>> = {
      'mine, first page': () => service.mine(holder, {}),
      'mine, 90 % deep': () => service.mine(holder, { after: mineDeep.cursor }),
      'company, first page': () => service.ofCompany(companyAdmin, '900001', {}),
      'company, 90 % deep': () => service.ofCompany(companyAdmin, '900001', { after: companyDeep.cursor }),
      'company Approved, 90 % deep': () =>
        service.ofCompany(companyAdmin, '900001', { status: 'Approved', after: statusDeep.cursor }),
      'queue, first page': () => service.queue(approver, {}),
      'queue, 90 % deep': () => service.queue(approver, { after: queueDeep.cursor }),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
    for (let r = 0; r < plan.repeats; r++)
      for (const [k, run] of Object.entries(runs)) {
        const started = process.hrtime.bigint();
        await run();
        times[k]?.push(ms(started));
      }

    // The deep page by key holds the rows OFFSET finds after that depth.
    const byKey = (await runs['company, 90 % deep']?.())?.rows.map((r) => r.id) ?? [];
    const { rows: byOffset } = await client.query(
      `select id from ${reports} where company_id = $1 order by updated_at desc, id desc offset $2 limit ${PAGE}`,
      [companyId, companyDeep.depth + 1],
    );
    const sameRows = JSON.stringify(byKey) === JSON.stringify(byOffset.map((r) => Number(r.id)));

    const planOf = async (run: () => Promise<unknown>) => {
      sent.length = 0;
      await run();
      // The list's statement: the one reading expense_reports or the queue with a limit.
      const statement = [...sent].reverse().find((s) => /limit/i.test(s.sql) && /expense_report/.test(s.sql));
      if (!statement) throw new Error('no list statement sent');
      const { rows } = await client.query(
        `explain (analyze, format json) ${statement.sql}`,
        statement.params,
      );
      const top = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan;
      return top ? nodesOf(top) : [];
    };
    const planText = (nodes: PlanNode[]) =>
      nodes
        .filter((n) => n['Node Type'] !== 'Limit')
        .map(
          (n) =>
            n['Node Type'] +
            (n['Index Name'] ? ` ${n['Index Name']}` : '') +
            (n['Node Type'] === 'Sort' ? ` (${sortedRows(n)} rows)` : ''),
        )
        .join(' → ');
    const plans: Record<string, PlanNode[]> = {};
    for (const k of [
      'mine, 90 % deep',
      'company, 90 % deep',
      'company Approved, 90 % deep',
      'queue, 90 % deep',
    ])
      plans[k] = await planOf(runs[k] as () => Promise<unknown>);
    // No scan of the reports' tables and no sort of a company's reports: every list reads its index in
    // order (the planner may sort a handful of one cardholder's own rows: at most SMALL_SORT).
    const clean = Object.values(plans).every((nodes) =>
      nodes.every(
        (n) =>
          !(n['Node Type'] === 'Seq Scan' && /expense_report/.test(n['Relation Name'] ?? '')) &&
          !(n['Node Type'] === 'Sort' && sortedRows(n) > SMALL_SORT),
      ),
    );

    const p95 = (k: string) => round(percentile(times[k] ?? [], 95));
    const worst = Math.max(...Object.keys(runs).map(p95));
    const budgets: Budget[] = [
      {
        name: `every report list page p95 ≤ ${BUDGET_MS} ms over ${plan.reports.toLocaleString('en')} reports`,
        ok: worst <= BUDGET_MS,
        detail: Object.keys(runs)
          .map((k) => `${k} ${p95(k)} ms`)
          .join('; '),
      },
      {
        name: `the lists read their indexes in order: no sequential scan, no sort above ${SMALL_SORT} rows`,
        ok: clean,
        detail: Object.entries(plans)
          .map(([k, nodes]) => `${k}: ${planText(nodes)}`)
          .join('; '),
      },
      {
        name: 'a page 90 % deep by key holds the rows OFFSET finds there',
        ok: sameRows && byKey.length === PAGE,
        detail: `${byKey.length} rows, same ids: ${sameRows}`,
      },
    ];
    return {
      name: 'expenses',
      figures: {
        reports: plan.reports,
        cardholders: plan.holders,
        approvers: APPROVERS,
        fillMs: Math.round(fillMs),
        pageP95Ms: Object.fromEntries(Object.keys(runs).map((k) => [k, p95(k)])),
        depths: {
          mine: mineDeep.total,
          company: companyDeep.total,
          approved: statusDeep.total,
          queue: queueDeep.total,
        },
        plans: Object.fromEntries(Object.entries(plans).map(([k, nodes]) => [k, planText(nodes)])),
      },
      table: [
        `reports: ${plan.reports.toLocaleString('en')} of ${plan.holders.toLocaleString('en')} cardholders, ${APPROVERS} approvers; filled in ${Math.round(fillMs)} ms; page ${PAGE}`,
        ...Object.keys(runs).map((k) => `${k}: p95 ${p95(k)} ms`),
        ...Object.entries(plans).map(([k, nodes]) => `plan of ${k}: ${planText(nodes)}`),
      ],
      budgets,
    };
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
