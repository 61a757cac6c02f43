import type { MultiUserState } from './multi-user.ts';
import type { Permission } from './roles.ts';
import type { UserType } from './user-types.ts';

export const LOGIN_TYPES = ['pwd', 'otp-2fa', 'token'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

/** The `login-form-type` values `/heracles/login` accepts (spec §7, §9). */
export const LOGIN_FORM_TYPES = ['password', 'otp', 'token', 'next-token'] as const;
export type LoginFormType = (typeof LOGIN_FORM_TYPES)[number];

// User types and statuses live in user-types.ts.

/** Answer of `POST /sdportal/rest/user/loginSignin`. */
export interface LoginDescriptor {
  ldapId: string;
  loginType: LoginType;
  b2BAlias: string;
}

/** Session stages (DESIGN §5): a partial session may only call its own stage's endpoints. */
export const SESSION_STAGES = ['full', 'otp', 'change-password', 'new-pin', 'next-token'] as const;
export type SessionStage = (typeof SESSION_STAGES)[number];

/** The one error shape of every 4xx answer. */
export interface ApiErrorBody {
  code: string;
  message: string;
  fieldErrors?: Record<string, string>;
}

/** Answer of `GET /sdportal/rest/changepasswordserviceurls`. */
export interface ChangePasswordServiceUrls {
  changePassword: string;
  autoLogout: string;
  cancelPasswordReset: string;
}

/** Answer of `GET /sdportal/rest/logoutrest/logoutLabelsAndReturnLink`. */
export interface LogoutLabels {
  'ng.you.have.been.logged.out': string;
  'ng.return.to.login.screen': string;
  cobrandHostInfo: string;
  fssoLogoutUrl: string | null;
}

/** Answer of `GET /app/api/me` for a full session. */
export interface CurrentUser {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  userType: UserType;
  cobrand: string;
  locale: string;
  lastLoginAt: string | null;
  /** Permissions from the user's roles (packages/domain roles.ts). */
  permissions: Permission[];
  /** Multi-user: a link to confirm, or the IDs to choose from after sign-in. */
  multiUser: MultiUserState;
  /** Access as user: who is really working in this session (the banner names them), else null. */
  accessedBy: { userId: string; firstName: string; lastName: string } | null;
}
