import type {
  AccountingCode,
  AccountingCodeList,
  AccountingValue,
  AccountingValueList,
} from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingCodes, accountingValues, auditEvents } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * A company's accounting codes and their values (issue 16 item 1): codes in ledger order with their
 * kinds, entry modes and dependencies (never circular, never on text codes, at most six deep), values
 * as customer codes (1–25, not all zeros, no duplicates in any case), dependent values under a parent
 * value, searched past 10,000, deletions refused while something depends on them — each change audited.
 */
let ctx: TestContext;
const { get, send } = signedInClients(() => ctx);
const ACME = '/app/api/org/companies/100001/accounting-codes';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const list = async (userId = 'admin01') => (await get(userId, ACME)).json() as AccountingCodeList;
async function create(body: Record<string, unknown>): Promise<AccountingCode> {
  const res = await send('admin01', 'POST', ACME, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AccountingCode;
}
const addValue = (codeId: number, body: Record<string, unknown>) =>
  send('admin01', 'POST', `${ACME}/${codeId}/values`, body);
const values = async (codeId: number, query = '') =>
  (await get('admin01', `${ACME}/${codeId}/values${query}`)).json() as AccountingValueList;

describe('accounting codes', () => {
  it('creates codes at the end of the ledger string, checks names, kinds and lengths, moves them', async () => {
    const before = await list();
    const department = await create({ name: 'Dept T1', kind: 'list' });
    const reference = await create({ name: 'Ref T1', kind: 'text', maxLength: 12 });
    expect(department).toMatchObject({
      kind: 'list',
      entry: 'list',
      maxLength: 25,
      dependsOn: null,
      valueCount: 0,
    });
    expect(reference).toMatchObject({ kind: 'text', entry: 'entry', maxLength: 12 });
    expect(reference.position).toBe(department.position + 1);
    expect((await list()).remaining).toBe(before.remaining - 2);

    const refuse = async (body: unknown, field: string, key: string) => {
      const res = await send('admin01', 'POST', ACME, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fieldErrors?.[field]).toBe(key);
    };
    await refuse({ name: 'dept t1', kind: 'list' }, 'name', 'accountingCode.name.duplicate');
    await refuse({ name: '', kind: 'list' }, 'name', 'accountingCode.name.required');
    await refuse({ name: 'x'.repeat(26), kind: 'list' }, 'name', 'accountingCode.name.tooLong');
    await refuse({ name: '<b>', kind: 'list' }, 'name', 'accountingCode.name.invalidCharacters');
    await refuse({ name: 'Odd', kind: 'tree' }, 'kind', 'accountingCode.kind.invalid');
    await refuse(
      { name: 'Long', kind: 'text', maxLength: 26 },
      'maxLength',
      'accountingCode.maxLength.range',
    );
    await refuse(
      { name: 'On text', kind: 'list', dependsOn: reference.id },
      'dependsOn',
      'accountingCode.dependsOn.text',
    );
    await refuse(
      { name: 'Nowhere', kind: 'list', dependsOn: 999_999 },
      'dependsOn',
      'accountingCode.dependsOn.unknown',
    );

    // Move the text code to the front: the others close up behind it.
    const moved = await send('admin01', 'PATCH', `${ACME}/${reference.id}`, { position: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await list();
    expect(after.rows[0]?.id).toBe(reference.id);
    expect(after.rows.map((c) => c.position)).toEqual(after.rows.map((_, i) => i + 1));
    const outOfRange = await send('admin01', 'PATCH', `${ACME}/${reference.id}`, { position: 99 });
    expect(outOfRange.json().fieldErrors?.position).toBe('accountingCode.position.range');
    const listOnly = await send('admin01', 'PATCH', `${ACME}/${department.id}`, { maxLength: 10 });
    expect(listOnly.json().fieldErrors?.maxLength).toBe('accountingCode.maxLength.listCode');
  });

  it('keeps dependencies acyclic and at most six deep, and changes them only while a code has no values', async () => {
    const a = await create({ name: 'Chain A', kind: 'list' });
    const b = await create({ name: 'Chain B', kind: 'list', dependsOn: a.id });
    const c = await create({ name: 'Chain C', kind: 'list', dependsOn: b.id });
    expect(c.dependsOn).toEqual({ id: b.id, name: 'Chain B' });
    const circle = await send('admin01', 'PATCH', `${ACME}/${a.id}`, { dependsOn: c.id });
    expect(circle.statusCode).toBe(400);
    expect(circle.json().fieldErrors.dependsOn).toBe('accountingCode.dependsOn.circular');
    const self = await send('admin01', 'PATCH', `${ACME}/${a.id}`, { dependsOn: a.id });
    expect(self.json().fieldErrors.dependsOn).toBe('accountingCode.dependsOn.self');
    // Four more below C: six dependent fields under A; a seventh is refused.
    let parent = c.id;
    for (const name of ['Chain D', 'Chain E', 'Chain F', 'Chain G'])
      parent = (await create({ name, kind: 'list', dependsOn: parent })).id;
    const deep = await send('admin01', 'POST', ACME, { name: 'Chain H', kind: 'list', dependsOn: parent });
    expect(deep.json().fieldErrors?.dependsOn).toBe('accountingCode.dependsOn.tooDeep');
    // A code with values keeps its dependency.
    expect((await addValue(a.id, { value: 'A1' })).statusCode).toBe(201);
    expect((await addValue(b.id, { value: 'B1', parent: 'a1' })).statusCode).toBe(201);
    const locked = await send('admin01', 'PATCH', `${ACME}/${b.id}`, { dependsOn: null });
    expect(locked.json().fieldErrors?.dependsOn).toBe('accountingCode.dependsOn.hasValues');
    // Deleting or deactivating a code others depend on is refused; the leaf goes.
    const inUse = await send('admin01', 'DELETE', `${ACME}/${a.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('accountingCode.inUse');
    const busy = await send('admin01', 'PATCH', `${ACME}/${a.id}`, { active: false });
    expect(busy.json().code).toBe('accountingCode.hasDependants');
    const leaf = await send('admin01', 'DELETE', `${ACME}/${parent}`);
    expect(leaf.statusCode).toBe(204);
    const positions = (await list()).rows.map((code) => code.position);
    expect(positions).toEqual(positions.map((_, i) => i + 1));
  });

  it('takes customer codes by the catalogue, once per code in any case, under a parent value when dependent', async () => {
    const gl = await create({ name: 'Ledger T3', kind: 'list' });
    const sub = await create({ name: 'Ledger sub T3', kind: 'list', dependsOn: gl.id });
    const ok = await addValue(gl.id, { value: '6100', description: 'Travel' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ value: '6100', description: 'Travel', parent: null, active: true });
    const field = async (codeId: number, body: unknown) =>
      (await addValue(codeId, body as Record<string, unknown>)).json().fieldErrors;
    expect(await field(gl.id, { value: '0000' })).toEqual({ value: 'accountingValue.value.allZeros' });
    expect(await field(gl.id, { value: 'x'.repeat(26) })).toEqual({ value: 'accountingValue.value.tooLong' });
    expect(await field(gl.id, { value: '4111 1111 1111 1111' })).toEqual({
      value: 'accountingValue.value.format',
    });
    expect(await field(gl.id, { value: ' 6100' })).toEqual({ value: 'accountingValue.value.duplicate' });
    expect(await field(gl.id, { value: 'ab', description: '<script>' })).toEqual({
      description: 'accountingValue.description.invalidCharacters',
    });
    expect(await field(gl.id, { value: 'AB', parent: '6100' })).toEqual({
      parent: 'accountingValue.parent.notDependent',
    });
    expect(await field(sub.id, { value: '10' })).toEqual({ parent: 'accountingValue.parent.required' });
    expect(await field(sub.id, { value: '10', parent: '9999' })).toEqual({
      parent: 'accountingValue.parent.unknown',
    });
    const child = await addValue(sub.id, { value: '10', description: 'Air', parent: '6100' });
    expect(child.statusCode).toBe(201);
    expect((child.json() as AccountingValue).parent).toMatchObject({ value: '6100', description: 'Travel' });
    // Text codes keep no values.
    const text = await create({ name: 'Memo T3', kind: 'text' });
    const noValues = await addValue(text.id, { value: 'X' });
    expect(noValues.statusCode).toBe(409);
    expect(noValues.json().code).toBe('accountingCode.textHasNoValues');

    // The parent value cannot go while a value belongs to it; the child can, and the count follows.
    const parentId = (ok.json() as AccountingValue).id;
    const refused = await send('admin01', 'DELETE', `${ACME}/${gl.id}/values/${parentId}`);
    expect(refused.json().code).toBe('accountingValue.inUse');
    const childId = (child.json() as AccountingValue).id;
    expect((await send('admin01', 'DELETE', `${ACME}/${sub.id}/values/${childId}`)).statusCode).toBe(204);
    expect((await list()).rows.find((c) => c.id === sub.id)?.valueCount).toBe(0);
    // Description and status change; the customer code does not.
    const patched = await send('admin01', 'PATCH', `${ACME}/${gl.id}/values/${parentId}`, {
      description: 'Travel and subsistence',
      active: false,
    });
    expect(patched.json()).toMatchObject({
      value: '6100',
      description: 'Travel and subsistence',
      active: false,
    });
    const events = await ctx.app.db
      .select({ event: auditEvents.event })
      .from(auditEvents)
      .where(
        sql`${auditEvents.entity} = 'accountingValue' and ${auditEvents.detail}->>'code' in ('Ledger T3', 'Ledger sub T3')`,
      );
    expect(events.map((e) => e.event).sort()).toEqual([
      'accountingValue.created',
      'accountingValue.created',
      'accountingValue.deleted',
      'accountingValue.updated',
    ]);
  });

  it('lists values by key, searches by the start of the code or description, and stops listing past 10,000', async () => {
    const project = await create({ name: 'Project T4', kind: 'list' });
    // 10,001 values written directly (the upload that makes them is issue 16 item 5), the count kept alike.
    await ctx.app.db.execute(sql`insert into ${accountingValues} (code_id, value, value_key, description, description_key)
      select ${project.id}, 'P' || lpad(i::text, 5, '0'), 'P' || lpad(i::text, 5, '0'), 'Project ' || i, 'PROJECT ' || i
      from generate_series(1, 10001) as i`);
    await ctx.app.db
      .update(accountingCodes)
      .set({ valueCount: 10_001 })
      .where(eq(accountingCodes.id, project.id));
    const unlisted = await values(project.id);
    expect(unlisted.searchRequired).toBe(true);
    expect(unlisted.rows).toEqual([]);
    expect(unlisted.code.effectiveEntry).toBe('entry');
    const found = await values(project.id, '?q=p0999');
    expect(found.rows.map((v) => v.value)).toEqual([
      'P09990',
      'P09991',
      'P09992',
      'P09993',
      'P09994',
      'P09995',
      'P09996',
      'P09997',
      'P09998',
      'P09999',
    ]);
    const byDescription = await values(project.id, '?q=project 1000');
    expect(byDescription.rows.map((v) => v.value)).toEqual(['P01000', 'P10000', 'P10001']);
    // Paging by key through a search: pages meet without gaps or repeats.
    const first = await values(project.id, '?q=P01');
    expect(first.rows).toHaveLength(first.pageSize);
    const second = await values(project.id, `?q=P01&after=${first.nextCursor}`);
    expect((second.rows[0]?.value ?? '') > (first.rows.at(-1)?.value ?? '')).toBe(true);
    const back = await values(project.id, `?q=P01&before=${second.prevCursor}`);
    expect(back.rows.map((v) => v.id)).toEqual(first.rows.map((v) => v.id));
    const short = await get('admin01', `${ACME}/${project.id}/values?q=P`);
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors.q).toBe('search.tooShort');
    const badCursor = await get('admin01', `${ACME}/${project.id}/values?q=P01&after=nonsense`);
    expect(badCursor.statusCode).toBe(400);
  });

  it('shows the codes to administrators in scope, read-only to the system administrator, to nobody else', async () => {
    expect((await get('sysadmin01', ACME)).json()).toMatchObject({ canModify: false, readOnly: true });
    const refused = await send('sysadmin01', 'POST', ACME, { name: 'Nope', kind: 'list' });
    expect(refused.statusCode).toBe(403);
    expect((await get('active01', ACME)).statusCode).toBe(403);
    expect((await get('lvlmgr01', ACME)).statusCode).toBe(403);
    // Another issuer's company administrator: the company does not exist for it.
    expect((await get('bncadmin01', ACME)).statusCode).toBe(404);
    const code = (await list()).rows[0] as AccountingCode;
    expect(
      (await get('admin01', `/app/api/org/companies/100002/accounting-codes/${code.id}/values`)).statusCode,
    ).toBe(404);
    expect((await get('admin01', `${ACME}/abc/values`)).statusCode).toBe(404);
  });

  it('refuses a twenty-first code', async () => {
    const current = await list();
    for (let i = 0; i < current.remaining; i++) await create({ name: `Filler ${i}`, kind: 'text' });
    const res = await send('admin01', 'POST', ACME, { name: 'One too many', kind: 'list' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('accountingCode.tooMany');
  });
});
