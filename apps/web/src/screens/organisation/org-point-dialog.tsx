import type { OrgPointNode, ReportingStructure } from '@cardportal/domain';
import { Dialog } from '../../frame/aria/dialog.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import { flatten } from './org-tree.tsx';
import { type OrgPointFormValues, orgPointFormSchema, useSaveOrgPoint } from './organisation-queries.ts';

type TextName = Exclude<keyof OrgPointFormValues, 'reportsTo'>;

/**
 * Create an org point (optionally under `parent`) or edit / move one (`point`): a modal form (focus
 * kept inside, Escape cancels, focus back to the opener). The answer is the new structure, cached and
 * handed to `onSaved`.
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
  const { t } = useApp();
  const save = useSaveOrgPoint(company);
  const form = useAppForm({
    schema: orgPointFormSchema,
    codeFields: { 'orgPoint.number.duplicate': 'number' },
    defaultValues: {
      number: point?.number ?? '',
      name1: point?.name1 ?? '',
      name2: point?.name2 ?? '',
      reportingLevel: String(point?.reportingLevel ?? (parent ? parent.reportingLevel + 1 : 1)),
      reportsTo: point?.reportsTo ?? parent?.number ?? '',
    },
  });
  // Not itself nor anything below it (the server refuses cycles too).
  const below = point ? new Set(flatten([point]).map((p) => p.number)) : new Set<string>();
  const parents = flatten(roots).filter((p) => !below.has(p.number));
  const visible: TextName[] = point
    ? ['name1', 'name2', 'reportingLevel']
    : ['number', 'name1', 'name2', 'reportingLevel'];
  const fields = Object.fromEntries(
    [...visible, 'reportsTo' as const].map((name) => [
      name,
      { id: `point-${name}`, label: t(`app.org.point.field.${name}`) },
    ]),
  );

  const title = point ? t('app.org.point.editHeading', point.number) : t('app.org.point.createHeading');
  return (
    <Dialog open onClose={onCancel} title={title} id="org-point-dialog">
      <AppForm
        form={form}
        errorId="point-form-errors"
        fields={fields}
        summaryHeadingLevel={3}
        onSubmit={async (values) => onSaved(await save.mutateAsync({ point: point?.number, values }))}
      >
        {visible.map((name, index) => (
          <TextField
            key={name}
            control={form.control}
            name={name}
            id={`point-${name}`}
            label={t(`app.org.point.field.${name}`)}
            autoComplete="off"
            autoFocus={index === 0}
            inputMode={name === 'reportingLevel' ? 'numeric' : undefined}
          />
        ))}
        <SelectField
          control={form.control}
          name="reportsTo"
          id="point-reportsTo"
          label={t('app.org.point.field.reportsTo')}
          placeholder={t('app.org.point.topLevel')}
          options={parents.map((p) => ({ value: p.number, label: `${p.number} ${p.name1}` }))}
        />
        <div className="app-actions">
          <button type="button" className="app-button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <SubmitButton form={form} id="point-save">
            {t('app.people.form.save')}
          </SubmitButton>
        </div>
      </AppForm>
    </Dialog>
  );
}
