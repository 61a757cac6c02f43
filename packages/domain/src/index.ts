export * from './cobrand.ts';
export * from './limits.ts';
export * from './locales.ts';
export * from './login.ts';
export * from './password.ts';
export * from './paths.ts';
export * from './security-questions.ts';
export * from './user-id.ts';
