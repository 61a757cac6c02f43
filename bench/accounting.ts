/**
 * Accounting codes at scale (issue 16, docs/accounting.md): one code of 100,000 values in PostgreSQL
 * (a project list: `PRJ-000001`… with descriptions of a city and a number), searched through the
 * product's own repository function (`pageOfValues`, the SQL the values route runs):
 *  - by the start of the code (`PRJ-0421`), of a description (`Lisbon 12`), short and long prefixes;
 *  - a page deep in the whole list by key, and a dependent code's values under one parent value;
 *  - the plans: the prefix search reads the code's btree indexes (no sequential scan).
 * Budget (issue 16): value search over 100,000 values p95 ≤ 30 ms.
 */
import { randomBytes } from 'node:crypto';
import { valueKeyOf } from '@cardportal/domain';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../apps/server/src/db/schema.ts';
import { encodeCursor } from '../apps/server/src/kernel/paging.ts';
import { pageOfValues } from '../apps/server/src/modules/accounting/repository.ts';
import { type Budget, type Effort, POSTGRES_ADMIN_URL, percentile, root, type Section } from './lib.ts';

const PLANS: Record<Effort, { values: number; repeats: number }> = {
  smoke: { values: 2_000, repeats: 2 },
  quick: { values: 100_000, repeats: 5 },
  full: { values: 100_000, repeats: 20 },
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

    const budgets: Budget[] = [
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
      },
      table: [
        `values: ${n.toLocaleString('en')} in one code (+ 10,000 dependent), filled in ${Math.round(fillMs)} ms; page ${PAGE}`,
        `search by prefix (code or description): p50 ${p50} ms, p95 ${p95} ms (${searchTimes.length} searches)`,
        `page 90 % deep by key: p95 ${p('deep')} ms; a parent value's dependants: p95 ${p('dependent')} ms`,
        `plan of a description search: ${planText(searchPlan)}`,
        `plan of a code search: ${planText(codePlan)}`,
      ],
      budgets,
    };
  } finally {
    await client.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
