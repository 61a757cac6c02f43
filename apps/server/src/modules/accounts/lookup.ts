import type { CallerScope } from '@cardportal/domain';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { type CompanyRef, findCompanyInScope } from './repository.ts';

/** A path id: a positive whole number, else undefined (answered 404 like an unknown one). */
export const idOf = (text: string): number | undefined =>
  /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;

/**
 * The company a path names, inside the caller's scope: `404 company.notFound` when it does not exist
 * or lies outside (never says which). Every screen of the accounts module starts here.
 */
export async function companyInScope(db: Executor, caller: CallerScope, number: string): Promise<CompanyRef> {
  const found = /^\d{1,10}$/.test(number) ? await findCompanyInScope(db, caller, number) : undefined;
  if (!found)
    throw new AppError('notFound', 'company.notFound', { message: `No company ${number.slice(0, 20)}` });
  return found;
}
