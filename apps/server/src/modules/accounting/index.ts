import type { ServerModule } from '../../kernel/module.ts';
import { accountingRoutes } from './routes.ts';

/** A company's accounting codes and their values (issue 16, docs/accounting.md). */
export const accountingModule: ServerModule = { routes: accountingRoutes };
export {
  type AccountScheme,
  accountScheme,
  offeredValues,
  resolveValues,
  type SchemeCodeLine,
  valuesById,
} from './coding.ts';
/** A company's custom data fields (issue 16 item 4): the transactions module captures their values. */
export { type CustomFieldRow, customFieldsOf } from './custom-fields.ts';
/** A company's accounting codes in ledger order (the GL export's coding columns). */
export { codesOf as companyCodes } from './repository.ts';
