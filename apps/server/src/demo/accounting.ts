import { valueKeyOf } from '@cardportal/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  accountCodingDefaults,
  accountGroupAccounting,
  accountGroups,
  accountingCodes,
  accountingSchemeLines,
  accountingSchemes,
  accountingSubsets,
  accountingSubsetValues,
  accountingValues,
  accounts,
  companies,
  users,
} from '../db/schema.ts';

interface DemoCode {
  name: string;
  kind: 'list' | 'text';
  entry?: 'list' | 'entry';
  maxLength?: number;
  dependsOn?: string;
  /** value, description, and (a dependent code) the parent value. */
  values?: readonly (readonly [string, string] | readonly [string, string, string])[];
}

/**
 * The demo companies' ledger strings (issue 16): Acme books to a cost centre, a general-ledger account
 * with sub-accounts that depend on it, and a free-text project reference; Borealis to a GL account alone.
 */
export const DEMO_ACCOUNTING_CODES: Readonly<Record<string, readonly DemoCode[]>> = {
  '100001': [
    {
      name: 'Cost centre',
      kind: 'list',
      values: [
        ['4100', 'Sales'],
        ['4200', 'Operations'],
        ['4300', 'Finance'],
        ['4400', 'Engineering'],
        ['4500', 'Marketing'],
      ],
    },
    {
      name: 'GL account',
      kind: 'list',
      entry: 'entry',
      values: [
        ['6100', 'Travel'],
        ['6200', 'Meals and entertainment'],
        ['6300', 'Office supplies'],
        ['6400', 'Software and subscriptions'],
        ['6500', 'Fuel and vehicles'],
      ],
    },
    {
      name: 'Sub-account',
      kind: 'list',
      dependsOn: 'GL account',
      values: [
        ['AIR', 'Air fares', '6100'],
        ['HOTEL', 'Hotels', '6100'],
        ['RAIL', 'Rail and taxis', '6100'],
        ['CLIENT', 'Client entertainment', '6200'],
        ['STAFF', 'Staff meals', '6200'],
        ['SAAS', 'Subscriptions', '6400'],
        ['LICENCE', 'Licences', '6400'],
      ],
    },
    { name: 'Project', kind: 'text', maxLength: 12 },
  ],
  '100002': [
    {
      name: 'GL account',
      kind: 'list',
      values: [
        ['5010', 'Fuel'],
        ['5020', 'Maintenance'],
        ['5030', 'Tolls and parking'],
      ],
    },
  ],
};

export async function loadDemoAccountingCodes(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [number, codes] of Object.entries(DEMO_ACCOUNTING_CODES)) {
      const [company] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.number, number));
      if (!company) continue;
      const existing = await tx
        .select({ id: accountingCodes.id })
        .from(accountingCodes)
        .where(eq(accountingCodes.companyId, company.id))
        .limit(1);
      if (existing.length > 0) continue;
      const codeIds = new Map<string, number>();
      const valueIds = new Map<string, number>();
      for (const [index, code] of codes.entries()) {
        const [row] = await tx
          .insert(accountingCodes)
          .values({
            companyId: company.id,
            name: code.name,
            nameKey: valueKeyOf(code.name),
            position: index + 1,
            kind: code.kind,
            entry: code.kind === 'text' ? 'entry' : (code.entry ?? 'list'),
            maxLength: code.maxLength ?? 25,
            dependsOnId: code.dependsOn ? (codeIds.get(code.dependsOn) ?? null) : null,
            valueCount: code.values?.length ?? 0,
          })
          .returning({ id: accountingCodes.id });
        if (!row) continue;
        codeIds.set(code.name, row.id);
        for (const [value, description, parent] of code.values ?? []) {
          const parentId = parent && code.dependsOn ? valueIds.get(`${code.dependsOn}/${parent}`) : undefined;
          const [inserted] = await tx
            .insert(accountingValues)
            .values({
              codeId: row.id,
              value,
              valueKey: valueKeyOf(value),
              description,
              descriptionKey: valueKeyOf(description),
              parentId: parentId ?? null,
            })
            .returning({ id: accountingValues.id });
          if (inserted) valueIds.set(`${code.name}/${value}`, inserted.id);
        }
      }
      if (number === '100001') await acmeSchemes(tx, company.id, codeIds, valueIds);
    }
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Acme's schemes (issue 16 item 2): "Standard", the default — cost centre and GL account required, the
 * sub-account and project optional, the GL account changed by managers only; "Travel", for the Travel
 * group — GL accounts limited to the subset "Travel costs". active01's card defaults to cost centre 4100.
 */
async function acmeSchemes(
  tx: Tx,
  companyId: number,
  codeIds: Map<string, number>,
  valueIds: Map<string, number>,
) {
  const id = (name: string) => codeIds.get(name) as number;
  const [subset] = await tx
    .insert(accountingSubsets)
    .values({ companyId, codeId: id('GL account'), name: 'Travel costs', nameKey: 'TRAVEL COSTS' })
    .returning({ id: accountingSubsets.id });
  if (!subset) return;
  await tx.insert(accountingSubsetValues).values(
    ['6100', '6200'].map((v) => ({
      subsetId: subset.id,
      valueId: valueIds.get(`GL account/${v}`) as number,
    })),
  );
  const scheme = async (
    name: string,
    isDefault: boolean,
    lines: [string, boolean, string, number | null][],
  ) => {
    const [row] = await tx
      .insert(accountingSchemes)
      .values({ companyId, name, nameKey: name.toUpperCase(), isDefault })
      .returning({ id: accountingSchemes.id });
    if (!row) throw new Error('scheme not inserted');
    await tx.insert(accountingSchemeLines).values(
      lines.map(([code, required, override, subsetId], i) => ({
        schemeId: row.id,
        codeId: id(code),
        position: i + 1,
        required,
        override,
        subsetId,
      })),
    );
    return row.id;
  };
  await scheme('Standard', true, [
    ['Cost centre', true, 'cardholder', null],
    ['GL account', true, 'manager', null],
    ['Sub-account', false, 'cardholder', null],
    ['Project', false, 'cardholder', null],
  ]);
  const travel = await scheme('Travel', false, [
    ['Cost centre', true, 'cardholder', null],
    ['GL account', true, 'cardholder', subset.id],
    ['Sub-account', true, 'cardholder', null],
  ]);
  const [group] = await tx
    .select({ id: accountGroups.id })
    .from(accountGroups)
    .where(and(eq(accountGroups.companyId, companyId), eq(accountGroups.name, 'Travel')));
  if (group) await tx.insert(accountGroupAccounting).values({ groupId: group.id, schemeId: travel });
  const [card] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .innerJoin(users, eq(users.cardholderId, accounts.cardholderId))
    .where(eq(users.userId, 'active01'))
    .orderBy(accounts.id)
    .limit(1);
  if (card) {
    await tx.insert(accountCodingDefaults).values({
      accountId: card.id,
      codeId: id('Cost centre'),
      valueId: valueIds.get('Cost centre/4100') ?? null,
    });
  }
}
