import { zodResolver } from '@hookform/resolvers/zod';
import type { BaseSyntheticEvent } from 'react';
import {
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  get,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../api/client.ts';

/** Where the server's answers land on a form. */
export interface ServerErrorMapping<T extends FieldValues> {
  /** A server field name that differs from the form's (`placement.companyId` → `companyId`). */
  fieldAlias?: Partial<Record<string, FieldPath<T>>>;
  /** Error codes that belong to a field (`userId.exists` → `userId`, `currentPassword.wrong` → …). */
  codeFields?: Partial<Record<string, FieldPath<T>>>;
}

/** The key under `errors.root` that holds a problem not tied to a field (a message key). */
export const SERVER_ROOT = 'server';

/**
 * Puts a failed submission's answer onto the form, as the server said it: each `fieldErrors` entry
 * (field → message key) on its field (`type: 'server'`), a code listed in `codeFields` on its field,
 * anything else as the form's problem (`errors.root.server`, shown by AppForm's error summary).
 * Focus moves to the first field in error. Returns whether anything landed on a field.
 */
export function applyServerError<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, unknown>, 'setError' | 'getValues'>,
  error: unknown,
  mapping: ServerErrorMapping<T> = {},
): boolean {
  const values = form.getValues();
  const fields: [FieldPath<T>, string][] = [];
  if (error instanceof ApiError) {
    for (const [name, key] of Object.entries(error.fieldErrors ?? {})) {
      const field =
        mapping.fieldAlias?.[name] ?? (get(values, name) !== undefined ? (name as FieldPath<T>) : undefined);
      if (field) fields.push([field, key]);
    }
    const codeField = mapping.codeFields?.[error.code];
    if (codeField && !fields.some(([f]) => f === codeField)) fields.push([codeField, error.code]);
  }
  fields.forEach(([field, key], index) => {
    form.setError(field, { type: 'server', message: key }, { shouldFocus: index === 0 });
  });
  if (fields.length > 0) return true;
  form.setError(`root.${SERVER_ROOT}`, {
    type: 'server',
    message: error instanceof ApiError ? error.code : 'error.generic',
  });
  return false;
}

export type AppFormReturn<TIn extends FieldValues, TOut> = UseFormReturn<TIn, unknown, TOut> & {
  /** The form's problem not tied to a field (a message key), or undefined. */
  formProblem: string | undefined;
  /**
   * The `<form onSubmit>` handler: validates with the schema (focus goes to the first field in error),
   * then runs `action`; a rejection (an ApiError) is mapped onto the fields by `applyServerError`.
   */
  submitWith: (action: (values: TOut) => Promise<unknown>) => (event?: BaseSyntheticEvent) => Promise<void>;
};

/**
 * The application's one form hook: react-hook-form with the zod resolver over a schema of
 * `packages/domain` (whose messages are message keys), and the server's `{ code, fieldErrors }`
 * answers mapped back onto the fields. Validation runs on submit, then again on every change of a
 * field in error, so a corrected field clears its message as the user types.
 */
export function useAppForm<S extends z.ZodType<FieldValues, FieldValues>>(
  options: {
    schema: S;
    defaultValues: DefaultValues<z.input<S>>;
  } & ServerErrorMapping<z.input<S>>,
): AppFormReturn<z.input<S>, z.output<S>> {
  const { schema, defaultValues, fieldAlias, codeFields } = options;
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's generics follow the schema: input → the fields, output → the submitted values.
    resolver: zodResolver(schema as never) as never,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const rootProblem = form.formState.errors.root?.[SERVER_ROOT]?.message;
  const submitWith = (action: (values: z.output<S>) => Promise<unknown>) =>
    form.handleSubmit(async (values) => {
      try {
        await action(values);
      } catch (error) {
        applyServerError(form, error, { fieldAlias, codeFields });
      }
    });
  return { ...form, formProblem: rootProblem, submitWith };
}
