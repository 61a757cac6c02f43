import {
  type OrgPointNode,
  orgPointSchema,
  type ReportingStructure,
  toFieldErrors,
} from '@cardportal/domain';
import { ErrorSummary, FieldError, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useId, useRef } from 'react';
import { createOrgPoint, updateOrgPoint } from '../../api/organisations.ts';
import { useApp } from '../../lib/app-context.tsx';
import { type FieldProblems, useForm } from '../../lib/use-form.ts';
import { flatten } from './org-tree.tsx';

type PointField = 'number' | 'name1' | 'name2' | 'reportingLevel' | 'reportsTo';

/** The client's checks: the domain's org point schema (the server adds the whole-structure ones). */
export function validateOrgPoint(values: Record<PointField, string>): FieldProblems<PointField> {
  const parsed = orgPointSchema.safeParse({ ...values, reportsTo: values.reportsTo || null });
  if (parsed.success) return {};
  const problems: FieldProblems<PointField> = {};
  for (const [field, key] of Object.entries(toFieldErrors(parsed.error))) {
    if (['number', 'name1', 'name2', 'reportingLevel', 'reportsTo'].includes(field))
      problems[field as PointField] = key;
  }
  return problems;
}

/**
 * Create an org point (optionally under `parent`) or edit / move one (`point`): a modal form. The
 * answer is the new structure, handed to `onSaved`.
 */
export function OrgPointDialog({
  company,
  roots,
  point,
  parent,
  onSaved,
  onCancel,
}: {
  company: string;
  roots: OrgPointNode[];
  point?: OrgPointNode | undefined;
  parent?: OrgPointNode | undefined;
  onSaved: (structure: ReportingStructure) => void;
  onCancel: () => void;
}) {
  const { t, problemText, fieldProblemText } = useApp();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const form = useForm<PointField>({
    initial: {
      number: point?.number ?? '',
      name1: point?.name1 ?? '',
      name2: point?.name2 ?? '',
      reportingLevel: String(point?.reportingLevel ?? (parent ? parent.reportingLevel + 1 : 1)),
      reportsTo: point?.reportsTo ?? parent?.number ?? '',
    },
    validate: validateOrgPoint,
    codeFields: { 'orgPoint.number.duplicate': 'number' },
  });
  const { values, problems } = form;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    dialog.querySelector<HTMLInputElement>('input')?.focus();
  }, []);

  const err = (field: PointField) => (problems[field] ? fieldProblemText(problems[field]) : undefined);
  const items = (Object.keys(problems) as PointField[])
    .filter((f) => problems[f])
    .map((f) => ({ fieldId: `point-${f}`, text: `${t(`app.org.point.field.${f}`)}: ${err(f)}` }));
  // Not itself nor anything below it (the server refuses cycles too).
  const below = point ? new Set(flatten([point]).map((p) => p.number)) : new Set<string>();
  const parents = flatten(roots).filter((p) => !below.has(p.number));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await form.submit(async (v) => {
      const body = {
        name1: v.name1.trim(),
        name2: v.name2.trim(),
        reportingLevel: Number(v.reportingLevel.trim()),
        reportsTo: v.reportsTo || null,
      };
      const structure = point
        ? await updateOrgPoint(company, point.number, body)
        : await createOrgPoint(company, { number: v.number.trim(), ...body });
      onSaved(structure);
    });
  };

  const field = (name: 'number' | 'name1' | 'name2' | 'reportingLevel', extra = {}) => (
    <TextField
      id={`point-${name}`}
      label={t(`app.org.point.field.${name}`)}
      value={values[name]}
      onValueChange={(v) => form.set(name, v)}
      error={err(name)}
      autoComplete="off"
      {...extra}
    />
  );

  const title = point ? t('app.org.point.editHeading', point.number) : t('app.org.point.createHeading');
  return (
    <dialog
      ref={ref}
      className="app-dialog"
      id="org-point-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <form className="app-form" onSubmit={submit} noValidate>
        <ErrorSummary
          id="point-form-errors"
          headingLevel={3}
          heading={items.length > 0 || form.formProblem ? t('app.people.form.errors') : undefined}
          message={form.formProblem ? problemText(form.formProblem) : undefined}
          items={items}
        />
        {point ? null : field('number')}
        {field('name1')}
        {field('name2')}
        {field('reportingLevel', { inputMode: 'numeric' })}
        <div className={`cp-field${problems.reportsTo ? ' cp-field--invalid' : ''}`}>
          <label className="cp-field__label" htmlFor="point-reportsTo">
            {t('app.org.point.field.reportsTo')}
          </label>
          <select
            id="point-reportsTo"
            className="cp-field__input"
            value={values.reportsTo}
            onChange={(e) => form.set('reportsTo', e.target.value)}
            aria-invalid={problems.reportsTo ? true : undefined}
            aria-describedby={problems.reportsTo ? 'point-reportsTo-error' : undefined}
          >
            <option value="">{t('app.org.point.topLevel')}</option>
            {parents.map((p) => (
              <option key={p.number} value={p.number}>
                {p.number} {p.name1}
              </option>
            ))}
          </select>
          <FieldError id="point-reportsTo-error" message={err('reportsTo')} />
        </div>
        <div className="app-actions">
          <button type="button" className="app-button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            className="app-button app-button--primary"
            id="point-save"
            disabled={form.submitting}
          >
            {t('app.people.form.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
