import { useCallback, useState } from 'react';
import { ApiError } from '../api/client.ts';

/** Field name → message key (`userId.tooShort`, ...), as the domain rules and the server answer them. */
export type FieldProblems<F extends string> = Partial<Record<F, string>>;

export interface FormState<F extends string> {
  values: Record<F, string>;
  set: (field: F, value: string) => void;
  problems: FieldProblems<F>;
  /** Problem not tied to a field (the server's `message` code, e.g. `userId.exists` is mapped to a field). */
  formProblem: string | undefined;
  submitting: boolean;
  /**
   * Validates with the client rules (the same ones the server runs), then submits. Server field errors
   * (`fieldErrors`) are mapped onto the form's fields; anything else becomes the form problem.
   */
  submit: (action: (values: Record<F, string>) => Promise<void>) => Promise<boolean>;
}

/**
 * The application's one form helper: values, client validation by the domain rules, and the server's
 * `{ code, fieldErrors }` mapped back onto fields. `fieldAlias` maps a server field name (e.g.
 * `placement.companyId`) onto a form field.
 */
export function useForm<F extends string>(options: {
  initial: Record<F, string>;
  validate: (values: Record<F, string>) => FieldProblems<F>;
  fieldAlias?: Record<string, F>;
  /** Error codes that belong to a field (e.g. `userId.exists` → `userId`). */
  codeFields?: Record<string, F>;
}): FormState<F> {
  const [values, setValues] = useState(options.initial);
  const [problems, setProblems] = useState<FieldProblems<F>>({});
  const [formProblem, setFormProblem] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const { validate, fieldAlias, codeFields } = options;

  const set = useCallback((field: F, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
  }, []);

  const submit = async (action: (values: Record<F, string>) => Promise<void>): Promise<boolean> => {
    const found = validate(values);
    setProblems(found);
    setFormProblem(undefined);
    if (Object.keys(found).length > 0) return false;
    setSubmitting(true);
    try {
      await action(values);
      return true;
    } catch (error) {
      const mapped: FieldProblems<F> = {};
      let rest: string | undefined = 'error.generic';
      if (error instanceof ApiError) {
        rest = error.code;
        for (const [name, key] of Object.entries(error.fieldErrors ?? {})) {
          const field = (fieldAlias?.[name] ?? (name in values ? name : undefined)) as F | undefined;
          if (field) mapped[field] = key;
        }
        const codeField = codeFields?.[error.code];
        if (codeField && !mapped[codeField]) mapped[codeField] = error.code;
        if (Object.keys(mapped).length > 0) rest = undefined;
      }
      setProblems(mapped);
      setFormProblem(rest);
      return false;
    } finally {
      setSubmitting(false);
    }
  };

  return { values, set, problems, formProblem, submitting, submit };
}
