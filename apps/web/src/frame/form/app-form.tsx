import { ErrorSummary } from '@cardportal/ui';
import type { ReactNode } from 'react';
import { type FieldValues, useFormState } from 'react-hook-form';
import { useApp } from '../../lib/app-context.tsx';
import { useFocusOnProblem } from '../use-focus-on-problem.ts';
import type { AppFormReturn } from './use-app-form.ts';

/** A field the error summary lists: its element id (the entry links there) and its label. */
export interface SummaryField {
  id: string;
  label: string;
}

/**
 * A form of the application: `noValidate` (the schema checks, not the browser), the error summary
 * (`errorId`, announced by role="alert") and the fields inside. The summary shows the problem not
 * tied to a field, and focus moves to it when one lands (a field's problem focuses the field).
 * With `fields` (name → element id and label) it also lists every field in error under
 * `summaryTitle`, each entry a link to its field. `onSubmit` receives the schema's output; reject
 * (throw the ApiError) to have it mapped onto fields.
 */
export function AppForm<TIn extends FieldValues, TOut>({
  form,
  onSubmit,
  id,
  errorId,
  inline,
  fields,
  summaryTitle,
  summaryHeadingLevel,
  requiredNote,
  children,
}: {
  form: AppFormReturn<TIn, TOut>;
  onSubmit: (values: TOut) => Promise<unknown>;
  id?: string | undefined;
  /** The error summary's element id. */
  errorId: string;
  /** A row of short fields (search criteria, filters) instead of aligned label/field pairs. */
  inline?: boolean;
  /** Fields the summary lists when in error (name → element id and label), in this order. */
  fields?: Partial<Record<string, SummaryField>> | undefined;
  /** The summary's heading while it shows anything (default "Please correct the following" text). */
  summaryTitle?: string | undefined;
  /** The summary heading's level (3 inside a dialog or panel whose own heading is an h2). */
  summaryHeadingLevel?: 2 | 3;
  /** Some fields are required: say once, above them, what their marker means. */
  requiredNote?: boolean;
  children: ReactNode;
}) {
  const { t } = useApp();
  return (
    <form
      id={id}
      className={inline ? 'app-form app-form--inline' : 'app-form'}
      noValidate
      onSubmit={form.submitWith(onSubmit)}
    >
      <FormSummary
        form={form}
        id={errorId}
        fields={fields}
        title={summaryTitle}
        headingLevel={summaryHeadingLevel}
      />
      {requiredNote ? (
        <p className="app-hint app-form__required-note" id={id ? `${id}-required-note` : undefined}>
          {t('app.form.requiredNote')}
        </p>
      ) : null}
      {children}
    </form>
  );
}

/** AppForm's error summary: the root problem, the listed fields in error, focus on a root problem. */
function FormSummary<TIn extends FieldValues, TOut>({
  form,
  id,
  fields,
  title,
  headingLevel,
}: {
  form: AppFormReturn<TIn, TOut>;
  id: string;
  fields: Partial<Record<string, SummaryField>> | undefined;
  title: string | undefined;
  headingLevel: 2 | 3 | undefined;
}) {
  const { t, problemText, fieldProblemText } = useApp();
  const { errors } = useFormState({ control: form.control });
  const problem = form.formProblem;
  // A problem not tied to a field: nothing else takes focus, so the summary does (react-hook-form
  // clears the root error on each submission, so a repeated refusal moves focus again).
  const ref = useFocusOnProblem(problem);
  const items = fields
    ? Object.entries(fields).flatMap(([name, field]) => {
        const key = (errors as Record<string, { message?: unknown } | undefined>)[name]?.message;
        return field && typeof key === 'string'
          ? [{ fieldId: field.id, text: `${field.label}: ${fieldProblemText(key)}` }]
          : [];
      })
    : [];
  const listing = fields !== undefined && (items.length > 0 || problem !== undefined);
  return (
    <ErrorSummary
      id={id}
      ref={ref}
      headingLevel={headingLevel}
      heading={listing ? (title ?? t('app.people.form.errors')) : undefined}
      message={problem ? problemText(problem) : undefined}
      items={items}
    />
  );
}

/** The form's submit button: disabled while the submission runs (and while `disabled`). */
export function SubmitButton<TIn extends FieldValues, TOut>({
  form,
  id,
  disabled,
  children,
}: {
  form: AppFormReturn<TIn, TOut>;
  id: string;
  /** Also disabled for a reason of the screen's (nothing to submit yet, another action running). */
  disabled?: boolean | undefined;
  children: ReactNode;
}) {
  const { isSubmitting } = useFormState({ control: form.control });
  return (
    <button
      type="submit"
      className="app-button app-button--primary"
      id={id}
      disabled={isSubmitting || disabled === true}
    >
      {children}
    </button>
  );
}
