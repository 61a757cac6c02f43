/**
 * Accounting codes at scale (issue 16, docs/accounting.md): one code of 100,000 values in PostgreSQL
 * (a project list: `PRJ-000001`… with descriptions of a city and a number), searched through the
 * product's own repository function (`pageOfValues`, the SQL the values route runs):
 *  - by the start of the code (`PRJ-0421`), of a description (`Lisbon 12`), short and long prefixes;
 *  - a page deep in the whole list by key, and a dependent code's values under one parent value;
 *  - the plans: the prefix search reads the code's btree indexes (no sequential scan).
 * Then mass allocation (issue 16 item 3): 10,000 of the company's transactions over 100 card accounts,
 * coded alike in one all-or-nothing operation through the product's AllocationService (two lines by
 * percent, three codes), and undone as a whole — each timed, the totals checked in SQL.
 * Budgets (issue 16): value search over 100,000 values p95 ≤ 30 ms; mass allocation of 10,000 ≤ 5 s.
 */
import { randomBytes } from 'node:crypto';
import { valueKeyOf } from '@cardportal/domain';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/client.ts';
import * as schema from '../apps/server/src/db/schema.ts';
import type { Caller } from '../apps/server/src/http/caller.ts';
import { encodeCursor } from '../apps/server/src/kernel/paging.ts';
import { pageOfValues } from '../apps/server/src/modules/accounting/repository.ts';
import { AllocationService } from '../apps/server/src/modules/transactions/allocation.ts';
import { type Budget, type Effort, POSTGRES_ADMIN_URL, percentile, root, type Section } from './lib.ts';

const PLANS: Record<Effort, { values: number; repeats: number; transactions: number }> = {
  smoke: { values: 2_000, repeats: 2, transactions: 300 },
  quick: { values: 100_000, repeats: 5, transactions: 10_000 },
  full: { values: 100_000, repeats: 20, transactions: 10_000 },
};
const PAGE = 25;
const CITIES = [
  'Amsterdam',
  'Athens',
  'Barcelona',
  'Berlin',
  'Bologna',
  'Bratislava',
  'Brussels',
  'Bucharest',
  'Budapest',
  'Copenhagen',
  'Dublin',
  'Edinburgh',
  'Frankfurt',
  'Geneva',
  'Hamburg',
  'Helsinki',
  'Krakow',
  'Lisbon',
  'Ljubljana',
  'London',
  'Luxembourg',
  'Lyon',
  'Madrid',
  'Marseille',
  'Milan',
  'Munich',
  'Naples',
  'Oslo',
  'Paris',
  'Porto',
  'Prague',
  'Riga',
  'Rome',
  'Rotterdam',
  'Seville',
  'Sofia',
  'Stockholm',
  'Tallinn',
  'Valencia',
  'Vienna',
  'Vilnius',
  'Warsaw',
  'Zagreb',
  'Zurich',
];

const ms = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;
const round = (x: number) => Math.round(x * 100) / 100;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

export async function accountingBench(effort: Effort): Promise<Section> {
  const plan = PLANS[effort];
  const name = `cp_bench_accounting_${randomBytes(4).toString('hex')}`;
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
    const issuer = await client.query(
      `insert into issuers (number, name1, ica, bank_number) values ('9001', 'Bench Bank', '99999', '0001') returning id`,
    );
    const company = await client.query(
      `insert into companies (issuer_id, number, name1) values ($1, '900001', 'Bench Co') returning id`,
      [issuer.rows[0].id],
    );
    const companyId = Number(company.rows[0].id);
    const code = async (codeName: string, position: number, dependsOn: number | null, count: number) =>
      Number(
        (
          await client.query(
            `insert into accounting_codes (company_id, name, name_key, position, kind, entry, depends_on_id, value_count)
             values ($1, $2, upper($2), $3, 'list', 'entry', $4, $5) returning id`,
            [companyId, codeName, position, dependsOn, count],
          )
        ).rows[0].id,
      );
    const projectId = await code('Project', 1, null, plan.values);
    const fillStarted = process.hrtime.bigint();
    const cities = `array[${CITIES.map((c) => `'${c}'`).join(',')}]`;
    await client.query(
      `insert into accounting_values (code_id, value, value_key, description, description_key)
       select $1, v, v, d, upper(d) from (
         select 'PRJ-' || lpad(g::text, 6, '0') as v,
                (${cities})[1 + (g * 7919) % ${CITIES.length}] || ' ' || (g % 5000) as d
         from generate_series(1, $2::int) g) s`,
      [projectId, plan.values],
    );
    // A dependent code: 20 values under each of the first 500 projects.
    const taskId = await code('Task', 2, projectId, 10_000);
    await client.query(
      `insert into accounting_values (code_id, value, value_key, description, description_key, parent_id)
       select $1, 'T' || lpad(g::text, 5, '0'), 'T' || lpad(g::text, 5, '0'), 'Task ' || g, 'TASK ' || g,
              (select id from accounting_values where code_id = $2 and value_key = 'PRJ-' || lpad((1 + g % 500)::text, 6, '0'))
       from generate_series(1, 10000) g`,
      [taskId, projectId],
    );
    await client.query('vacuum analyze accounting_values');
    const fillMs = ms(fillStarted);

    const n = plan.values;
    const pick = (i: number) => 1 + ((i * 104_729) % n);
    const prefixes = [
      ...Array.from({ length: 10 }, (_, i) => `PRJ-${String(pick(i)).padStart(6, '0').slice(0, 4)}`),
      ...Array.from({ length: 10 }, (_, i) => `prj-${String(pick(i + 10)).padStart(6, '0')}`),
      ...CITIES.slice(0, 10).map((c, i) => `${c} ${pick(i) % 5000}`.slice(0, c.length + 2)),
      ...CITIES.slice(10, 20).map((c) => c.slice(0, 2)),
    ];
    const search = (q: string) => () =>
      pageOfValues(db, projectId, { prefix: valueKeyOf(q) }, { limit: PAGE });
    const deepKey = `PRJ-${String(Math.floor(n * 0.9)).padStart(6, '0')}`;
    const deep = () =>
      pageOfValues(db, projectId, {}, { after: encodeCursor('accountingValues', [deepKey]), limit: PAGE });
    const parentId = Number(
      (
        await client.query(`select id from accounting_values where code_id = $1 and value = 'PRJ-000250'`, [
          projectId,
        ])
      ).rows[0].id,
    );
    const dependent = () => pageOfValues(db, taskId, { parentId }, { limit: PAGE });

    // Correctness: a search finds exactly what a scan of the table finds, in order.
    const probe = prefixes[3] as string;
    const found = (await search(probe)()).rows.map((r) => r.value);
    const { rows: expected } = await client.query(
      `select value from accounting_values where code_id = $1 and (value_key like $2 || '%' or description_key like $2 || '%')
       order by value_key limit $3`,
      [projectId, valueKeyOf(probe), PAGE],
    );
    const sameRows = JSON.stringify(found) === JSON.stringify(expected.map((r) => r.value));

    const searchTimes: number[] = [];
    const other: Record<string, number[]> = { deep: [], dependent: [] };
    for (let r = 0; r < plan.repeats; r++) {
      for (const q of prefixes) {
        const started = process.hrtime.bigint();
        await search(q)();
        searchTimes.push(ms(started));
      }
      for (const [k, run] of [
        ['deep', deep],
        ['dependent', dependent],
      ] as const) {
        const started = process.hrtime.bigint();
        await run();
        other[k]?.push(ms(started));
      }
    }
    const p95 = round(percentile(searchTimes, 95));
    const p50 = round(percentile(searchTimes, 50));

    const planOf = async (run: () => Promise<unknown>) => {
      sent.length = 0;
      await run();
      const statement = sent.at(-1);
      if (!statement) throw new Error('no statement sent');
      const { rows } = await client.query(
        `explain (analyze, format json) ${statement.sql}`,
        statement.params,
      );
      const top = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]?.Plan;
      return top ? nodesOf(top) : [];
    };
    const planText = (nodes: PlanNode[]) =>
      nodes
        .map((node) => node['Node Type'] + (node['Index Name'] ? ` ${node['Index Name']}` : ''))
        .join(' → ');
    const searchPlan = await planOf(search(CITIES[4] as string));
    const codePlan = await planOf(search('PRJ-0421'));
    const noSeqScan = [...searchPlan, ...codePlan].every((node) => node['Node Type'] !== 'Seq Scan');

    // ---- Mass allocation ----
    const cost = await code('Cost centre', 3, null, 10);
    await client.query(
      `insert into accounting_values (code_id, value, value_key, description, description_key)
       select $1, 'CC' || g, 'CC' || g, 'Centre ' || g, 'CENTRE ' || g from generate_series(1, 10) g`,
      [cost],
    );
    const { rows: schemeRows } = await client.query(
      `insert into accounting_schemes (company_id, name, name_key, is_default) values ($1, 'Bench', 'BENCH', true) returning id`,
      [companyId],
    );
    await client.query(
      `insert into accounting_scheme_lines (scheme_id, code_id, position, required, override)
       values ($1, $2, 1, true, 'cardholder'), ($1, $3, 2, true, 'cardholder'), ($1, $4, 3, false, 'cardholder')`,
      [schemeRows[0].id, cost, projectId, taskId],
    );
    await client.query(
      `insert into accounts (company_id, number_cipher, number_hash, bin, number_length, last4)
       select $1, 'v1.bench', md5('acct-' || n), '542418', 16, lpad(n::text, 4, '0') from generate_series(1, 100) n`,
      [companyId],
    );
    await client.query(
      `insert into transactions (issuer_id, company_id, account_id, reference, transaction_date, posting_date,
         merchant_name, merchant_country, mcc, amount, currency, status)
       select $1, $2, a.ids[1 + (g % 100)], 'M' || g, date '2026-10-01' + (g % 28), date '2026-10-02' + (g % 28),
         'Merchant ' || (g % 97), 'US', '5812', 100 + (g * 7919) % 500000, 'USD', 'New'
       from generate_series(1, $3::int) g,
         (select array_agg(id order by id) as ids from accounts where company_id = $2) a`,
      [issuer.rows[0].id, companyId, plan.transactions],
    );
    await client.query('vacuum analyze transactions');
    const { rows: userRows } = await client.query(
      `insert into users (user_id, display_user_id, ldap_id, b2b_alias, email, first_name, last_name, cobrand,
         password_hash, user_type, company_id)
       values ('benchadmin', 'benchadmin', 'benchadmin', 'benchadmin', 'bench@example.com', 'Bench', 'Admin',
         'cardportal', 'x', 'C', $1) returning id`,
      [companyId],
    );
    const admin: Caller = {
      type: 'C',
      companyId,
      userPk: Number(userRows[0].id),
      userId: 'benchadmin',
      locale: 'en_US',
      cobrand: 'cardportal',
      profile: {} as Caller['profile'],
      permissions: new Set(),
      accessedBy: null,
    };
    const service = new AllocationService(db as unknown as Db);
    const massStarted = process.hrtime.bigint();
    const batch = await service.mass(
      admin,
      {
        company: '900001',
        from: '2026-10-01',
        to: '2026-10-31',
        lines: [
          { percent: 60, coding: { [cost]: 'CC1', [projectId]: 'PRJ-000250', [taskId]: 'T00249' } },
          { percent: 40, coding: { [cost]: 'cc2', [projectId]: 'prj-000007' } },
        ],
      },
      '127.0.0.1',
    );
    const massMs = ms(massStarted);
    const { rows: check } = await client.query(
      `select count(distinct a.transaction_id)::int as coded,
              bool_and(t.amount = s.total) as exact
       from transaction_allocations a
       join (select transaction_id, sum(amount) as total from transaction_allocations group by transaction_id) s
         on s.transaction_id = a.transaction_id
       join transactions t on t.id = a.transaction_id`,
    );
    const undoStarted = process.hrtime.bigint();
    await service.undo(admin, String(batch.id), '127.0.0.1');
    const undoMs = ms(undoStarted);
    const { rows: after } = await client.query('select count(*)::int as n from transaction_allocations');
    const massOk = check[0].coded === plan.transactions && check[0].exact === true && after[0].n === 0;

    const budgets: Budget[] = [
      {
        name: `mass allocation of ${plan.transactions.toLocaleString('en')} transactions ≤ 5 s`,
        ok: massMs <= 5000 && massOk,
        detail: `${Math.round(massMs)} ms (${check[0].coded} coded, totals exact: ${check[0].exact}); undone in ${Math.round(undoMs)} ms, ${after[0].n} lines left`,
      },
      {
        name: `value search over ${n.toLocaleString('en')} values p95 ≤ 30 ms`,
        ok: p95 <= 30,
        detail: `p50 ${p50} ms, p95 ${p95} ms over ${searchTimes.length} searches (${prefixes.length} prefixes)`,
      },
      {
        name: 'a search finds what a scan finds, in order',
        ok: sameRows,
        detail: sameRows
          ? `"${probe}": ${found.length} rows, same values`
          : `${found.slice(0, 3)} vs ${expected.slice(0, 3)}`,
      },
      {
        name: 'the prefix searches read the indexes, no sequential scan',
        ok: noSeqScan,
        detail: planText(searchPlan),
      },
    ];
    const p = (k: string) => round(percentile(other[k] ?? [], 95));
    return {
      name: 'accounting',
      figures: {
        values: n,
        repeats: plan.repeats,
        fillMs: Math.round(fillMs),
        searchMs: { p50, p95 },
        deepPageP95: p('deep'),
        dependentP95: p('dependent'),
        plans: { description: planText(searchPlan), code: planText(codePlan) },
        massAllocation: {
          transactions: plan.transactions,
          ms: Math.round(massMs),
          undoMs: Math.round(undoMs),
          ok: massOk,
        },
      },
      table: [
        `values: ${n.toLocaleString('en')} in one code (+ 10,000 dependent), filled in ${Math.round(fillMs)} ms; page ${PAGE}`,
        `search by prefix (code or description): p50 ${p50} ms, p95 ${p95} ms (${searchTimes.length} searches)`,
        `page 90 % deep by key: p95 ${p('deep')} ms; a parent value's dependants: p95 ${p('dependent')} ms`,
        `plan of a description search: ${planText(searchPlan)}`,
        `plan of a code search: ${planText(codePlan)}`,
        `mass allocation of ${plan.transactions.toLocaleString('en')} transactions (2 lines, 3 codes): ${Math.round(massMs)} ms; undo ${Math.round(undoMs)} ms`,
      ],
      budgets,
    };
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
