import type { ServerModule } from '../../kernel/module.ts';
import { tokenCommands } from './commands.ts';
import { tokenRoutes } from './routes.ts';

export {
  assignToken,
  checkTokencode,
  DEFAULT_PIN_DAYS,
  findToken,
  leaveNextTokenMode,
  verifyTokenPin,
} from './soft-token.ts';

/** The soft token: its tokencodes, its PIN, and the PIN routes. */
export const tokenModule: ServerModule = { routes: tokenRoutes, commands: tokenCommands };
