import {
  accountGroupSchema,
  cardholderSchema,
  checkReportingStructure,
  companyGroupSchema,
  companySchema,
  isLuhnValid,
  issuerGroupSchema,
  issuerSchema,
  orgPointSchema,
  PROGRAM_TYPES,
  type ProgramOptionKey,
  type ProgramTypeCode,
} from '@cardportal/domain';
import type { Executor } from '../db/client.ts';
import {
  accountGroups,
  accounts,
  cardholders,
  companies,
  companyGroups,
  issuerGroups,
  issuers,
  orgPoints,
  programOptions,
  programTypes,
} from '../db/schema.ts';
import type { CardVault, SealedCardNumber } from '../kernel/card-vault.ts';

/**
 * The demo organisations (README "Demo organisations"): one issuer group over two issuers, three
 * companies, their groups, reporting structures three levels deep, account groups, accounts,
 * cardholders and program options. Every record passes the shared rules of packages/domain.
 */

export const DEMO_ISSUER_GROUP = 'Cardportal Demo Banking Group';
/** The first demo company: the CLI's default `--company`, home of the demo cardholders. */
export const DEMO_COMPANY_NUMBER = '100001';

interface DemoOrgPoint {
  number: string;
  name1: string;
  reportingLevel: number;
  reportsTo?: string;
}

interface DemoCardholder {
  name1: string;
  name2: string;
  orgPoint: string;
  accounts: { group: string; status?: 'Active' | 'Suspended' | 'Closed' }[];
}

interface DemoCompany {
  number: string;
  name1: string;
  name2: string;
  group: string;
  programType: ProgramTypeCode;
  multiUser: boolean;
  options: Partial<Record<ProgramOptionKey, boolean>>;
  orgPoints: DemoOrgPoint[];
  accountGroups: string[];
  cardholders: DemoCardholder[];
}

interface DemoIssuer {
  number: string;
  name1: string;
  name2: string;
  ica: string;
  bankNumber: string;
  cobrand: string;
  options: Partial<Record<ProgramOptionKey, boolean>>;
  companyGroups: string[];
  companies: DemoCompany[];
}

const ALL_ON: Partial<Record<ProgramOptionKey, boolean>> = {
  twoFactor: true,
  singleSignOn: true,
  selfRegistration: true,
  accessAsUser: true,
  reportingStructureUpload: true,
  expenseReports: true,
  purchaseRequests: true,
  virtualCards: true,
  disputes: true,
  wallet: false,
  transactionApproval: true,
};

export const DEMO_ISSUERS: DemoIssuer[] = [
  {
    number: '1001',
    name1: 'Cardportal Demo Bank',
    name2: 'Corporate Card Services',
    ica: '12345',
    bankNumber: '0042',
    cobrand: 'cardportal',
    // Single sign-on here (Borealis), so no self-registration: seed 001 §6 forbids the two together.
    options: { ...ALL_ON, selfRegistration: false },
    companyGroups: ['Demo Manufacturing Group'],
    companies: [
      {
        number: DEMO_COMPANY_NUMBER,
        name1: 'Acme Industries',
        name2: 'Head Office',
        group: 'Demo Manufacturing Group',
        programType: 'corporate',
        multiUser: true,
        // Multi-user is on, so single sign-on is off here (seed 001 §6: they do not combine).
        options: { singleSignOn: false },
        orgPoints: [
          { number: 'A000', name1: 'Acme Industries', reportingLevel: 1 },
          { number: 'A100', name1: 'Operations', reportingLevel: 2, reportsTo: 'A000' },
          { number: 'A110', name1: 'Plant North', reportingLevel: 3, reportsTo: 'A100' },
          { number: 'A120', name1: 'Plant South', reportingLevel: 3, reportsTo: 'A100' },
          { number: 'A200', name1: 'Finance', reportingLevel: 2, reportsTo: 'A000' },
          { number: 'A210', name1: 'Accounts Payable', reportingLevel: 3, reportsTo: 'A200' },
        ],
        accountGroups: ['Travel', 'Purchasing'],
        cardholders: [
          { name1: 'Grace', name2: 'Hopper', orgPoint: 'A110', accounts: [{ group: 'Travel' }] },
          { name1: 'Alan', name2: 'Turing', orgPoint: 'A120', accounts: [{ group: 'Purchasing' }] },
          {
            name1: 'Edsger',
            name2: 'Dijkstra',
            orgPoint: 'A210',
            accounts: [
              { group: 'Travel', status: 'Suspended' },
              { group: 'Purchasing', status: 'Closed' },
            ],
          },
        ],
      },
      {
        number: '100002',
        name1: 'Borealis Logistics',
        name2: '',
        group: 'Demo Manufacturing Group',
        programType: 'purchasing',
        multiUser: false,
        options: {},
        orgPoints: [
          { number: 'B000', name1: 'Borealis Logistics', reportingLevel: 1 },
          { number: 'B100', name1: 'Fleet', reportingLevel: 2, reportsTo: 'B000' },
          { number: 'B110', name1: 'Depot East', reportingLevel: 3, reportsTo: 'B100' },
        ],
        accountGroups: ['General'],
        cardholders: [
          { name1: 'Katherine', name2: 'Johnson', orgPoint: 'B110', accounts: [{ group: 'General' }] },
        ],
      },
    ],
  },
  {
    number: '2001',
    name1: 'Banco Norte Demo',
    name2: 'Tarjetas Corporativas',
    ica: '23456',
    bankNumber: '0077',
    cobrand: 'banconorte',
    // Cardholder self-registration here (Norte Logística), so no single sign-on.
    options: { ...ALL_ON, twoFactor: false, singleSignOn: false },
    companyGroups: ['Grupo Norte'],
    companies: [
      {
        number: '200001',
        name1: 'Norte Logística',
        name2: 'S.A.',
        group: 'Grupo Norte',
        programType: 'travel',
        multiUser: false,
        options: {},
        orgPoints: [
          { number: 'N000', name1: 'Norte Logística', reportingLevel: 1 },
          { number: 'N100', name1: 'Ventas', reportingLevel: 2, reportsTo: 'N000' },
          { number: 'N110', name1: 'Ventas Madrid', reportingLevel: 3, reportsTo: 'N100' },
        ],
        accountGroups: ['General'],
        cardholders: [
          { name1: 'Lucía', name2: 'Martín', orgPoint: 'N110', accounts: [{ group: 'General' }] },
        ],
      },
    ],
  },
];

/** A Luhn-valid 16-digit demo card number in the BIN 542418 (Mastercard test range style). */
export function demoAccountNumber(sequence: number): string {
  const body = `542418${String(sequence).padStart(9, '0')}`;
  for (let d = 0; d <= 9; d++) if (isLuhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

/** Account numbers handed out so far in this load (demo cardholders and demo users share the series). */
export class DemoAccountSeries {
  private next = 1;
  constructor(private readonly vault: CardVault) {}
  /** The next demo card number, sealed as every card number is at rest. */
  take(): SealedCardNumber {
    return this.vault.seal(demoAccountNumber(this.next++));
  }
}

/** Ids of the demo organisation, by number / name, for placing the demo users. */
export interface DemoOrgIds {
  issuerGroupId: number;
  issuers: Map<string, number>;
  companyGroups: Map<string, number>;
  companies: Map<string, number>;
  /** `${companyNumber}/${orgPointNumber}` → id */
  orgPoints: Map<string, number>;
  /** `${companyNumber}/${groupName}` → id */
  accountGroups: Map<string, number>;
}

function one<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Inserts the demo organisations (run once, inside the demo loader's transaction). */
export async function insertDemoOrganisations(db: Executor, series: DemoAccountSeries): Promise<DemoOrgIds> {
  const typeIds = new Map<string, number>();
  for (const [code, name] of Object.entries(PROGRAM_TYPES)) {
    typeIds.set(code, one(await db.insert(programTypes).values({ code, name }).returning()).id);
  }
  const group = one(
    await db
      .insert(issuerGroups)
      .values(issuerGroupSchema.parse({ name: DEMO_ISSUER_GROUP }))
      .returning(),
  );
  const ids: DemoOrgIds = {
    issuerGroupId: group.id,
    issuers: new Map(),
    companyGroups: new Map(),
    companies: new Map(),
    orgPoints: new Map(),
    accountGroups: new Map(),
  };
  for (const demo of DEMO_ISSUERS) {
    const issuer = one(
      await db
        .insert(issuers)
        .values({ ...issuerSchema.parse(demo), issuerGroupId: group.id, cobrand: demo.cobrand })
        .returning(),
    );
    ids.issuers.set(demo.number, issuer.id);
    for (const [key, enabled] of Object.entries(demo.options)) {
      await db.insert(programOptions).values({ key, level: 'issuer', issuerId: issuer.id, enabled });
    }
    for (const name of demo.companyGroups) {
      const row = one(
        await db
          .insert(companyGroups)
          .values({ ...companyGroupSchema.parse({ name }), issuerId: issuer.id })
          .returning(),
      );
      ids.companyGroups.set(name, row.id);
    }
    for (const c of demo.companies) {
      const { number, name1, name2 } = companySchema.parse({ ...c, groupName: c.group });
      const company = one(
        await db
          .insert(companies)
          .values({
            issuerId: issuer.id,
            companyGroupId: ids.companyGroups.get(c.group) ?? null,
            programTypeId: typeIds.get(c.programType) ?? null,
            number,
            name1,
            name2,
            multiUser: c.multiUser,
          })
          .returning(),
      );
      ids.companies.set(c.number, company.id);
      for (const [key, enabled] of Object.entries(c.options)) {
        await db.insert(programOptions).values({ key, level: 'company', companyId: company.id, enabled });
      }
      const problems = checkReportingStructure(c.orgPoints);
      if (problems.length > 0) throw new Error(`demo org tree of ${c.number}: ${JSON.stringify(problems)}`);
      // Parents first: the demo lists every org point after the one it reports to.
      for (const p of c.orgPoints) {
        const point = orgPointSchema.parse(p);
        const row = one(
          await db
            .insert(orgPoints)
            .values({
              companyId: company.id,
              number: point.number,
              name1: point.name1,
              name2: point.name2,
              reportingLevel: point.reportingLevel,
              reportsToId: point.reportsTo
                ? (ids.orgPoints.get(`${c.number}/${point.reportsTo}`) ?? null)
                : null,
            })
            .returning(),
        );
        ids.orgPoints.set(`${c.number}/${point.number}`, row.id);
      }
      for (const name of c.accountGroups) {
        const row = one(
          await db
            .insert(accountGroups)
            .values({ ...accountGroupSchema.parse({ name }), companyId: company.id })
            .returning(),
        );
        ids.accountGroups.set(`${c.number}/${name}`, row.id);
      }
      for (const h of c.cardholders) {
        const cardholder = one(
          await db
            .insert(cardholders)
            .values({
              ...cardholderSchema.parse(h),
              companyId: company.id,
              orgPointId: ids.orgPoints.get(`${c.number}/${h.orgPoint}`) ?? null,
            })
            .returning(),
        );
        for (const a of h.accounts) {
          await insertDemoAccount(db, series, {
            companyId: company.id,
            accountGroupId: ids.accountGroups.get(`${c.number}/${a.group}`) ?? null,
            cardholderId: cardholder.id,
            status: a.status ?? 'Active',
          });
        }
      }
    }
  }
  return ids;
}

export async function insertDemoAccount(
  db: Executor,
  series: DemoAccountSeries,
  account: { companyId: number; accountGroupId: number | null; cardholderId: number; status?: string },
): Promise<void> {
  const sealed = series.take();
  await db.insert(accounts).values({
    ...account,
    numberCipher: sealed.cipher,
    numberHash: sealed.hash,
    bin: sealed.bin,
    numberLength: sealed.length,
    last4: sealed.last4,
  });
}
