import { checkDeclineReason, DECLINE_REASON_MAX_LENGTH } from '@cardportal/domain';
import { z } from 'zod';
import { AppForm, SubmitButton } from './app-form.tsx';
import { TextAreaField } from './fields.tsx';
import { useAppForm } from './use-app-form.ts';

/** A reason of 1–500 characters (packages/domain checkDeclineReason): what a decline tells the applicant. */
export const reasonFormSchema = z.object({
  reason: z.string().superRefine((value, ctx) => {
    const problem = checkDeclineReason(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

/**
 * A decision that needs a reason, in a section of its own under a review dialog (a company
 * registration's or a card application's decline): its heading (h3), a required text area and the
 * submit button; the reason is sent trimmed, and a refusal stays at the field or in the form's summary.
 */
export function ReasonForm({
  heading,
  label,
  submit,
  onSubmit,
}: {
  heading: string;
  label: string;
  submit: string;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const form = useAppForm({ schema: reasonFormSchema, defaultValues: { reason: '' } });
  return (
    <section aria-labelledby="decline-heading">
      <h3 id="decline-heading">{heading}</h3>
      <AppForm
        form={form}
        id="decline-form"
        errorId="decline-error"
        summaryHeadingLevel={3}
        onSubmit={(values) => onSubmit(values.reason.trim())}
      >
        <TextAreaField
          control={form.control}
          name="reason"
          id="decline-reason"
          label={label}
          maxLength={DECLINE_REASON_MAX_LENGTH}
          required
        />
        <div className="app-actions">
          <SubmitButton form={form} id="decline-submit">
            {submit}
          </SubmitButton>
        </div>
      </AppForm>
    </section>
  );
}
