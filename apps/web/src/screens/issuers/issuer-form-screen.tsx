import {
  ACCOUNT_DIGITS_DEFAULT,
  ACCOUNT_DIGITS_MAX,
  ACCOUNT_DIGITS_MIN,
  DEFAULT_PASSWORD_POLICY,
  type IssuerDetail,
  type IssuerGroupSummary,
  LIMITS,
  may,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  ISSUER_CODE_FIELDS,
  type IssuerFormValues,
  issuerFormSchema,
  issuerGroupsQuery,
  issuerQuery,
  useSaveIssuer,
  wholeNumber,
} from './issuers-queries.ts';

/** Create an issuer (Z), or edit one (`/issuers/:number/edit`, Z and H; only Z moves it between groups). */
export function IssuerFormScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { t, user, problemText } = useApp();
  const { number = '' } = useParams();
  const heading = mode === 'create' ? t('app.issuers.create.heading') : t('app.issuers.edit.heading', number);
  usePageTitle(heading);
  const mayChooseGroup = may({ type: user.userType }, 'createIssuer');
  const detailRead = useQuery({ ...issuerQuery(number), enabled: mode === 'edit' });
  const groupsRead = useQuery({ ...issuerGroupsQuery(), enabled: mayChooseGroup });
  const detail = mode === 'edit' ? detailRead.data : undefined;
  const groups = mayChooseGroup ? groupsRead.data?.rows : [];
  const failed = detailRead.isError ? detailRead.error : groupsRead.isError ? groupsRead.error : undefined;
  const problem = failed ? problemOf(failed) : undefined;

  const ready = groups !== undefined && (mode === 'create' || detail !== undefined);
  return (
    <>
      <h1>{heading}</h1>
      <ErrorSummary id="issuer-load-error" message={problem ? problemText(problem) : undefined} />
      {ready ? (
        <IssuerForm mode={mode} detail={detail} groups={groups} mayChooseGroup={mayChooseGroup} />
      ) : null}
      {!ready && !problem ? <p>{t('common.loading')}</p> : null}
    </>
  );
}

function IssuerForm({
  mode,
  detail,
  groups,
  mayChooseGroup,
}: {
  mode: 'create' | 'edit';
  detail?: IssuerDetail | undefined;
  groups: IssuerGroupSummary[];
  mayChooseGroup: boolean;
}) {
  const { t } = useApp();
  const navigate = useNavigate();
  const save = useSaveIssuer();
  const schema = useMemo(() => issuerFormSchema(mode), [mode]);
  const form = useAppForm({
    schema,
    codeFields: ISSUER_CODE_FIELDS,
    defaultValues: {
      number: detail?.number ?? '',
      name1: detail?.name1 ?? '',
      name2: detail?.name2 ?? '',
      ica: detail?.ica ?? '',
      bankNumber: detail?.bankNumber ?? '',
      issuerGroupId: detail?.issuerGroupId ? String(detail.issuerGroupId) : '',
      cobrand: detail?.cobrand ?? '',
      passwordMinLength: String(detail?.passwordMinLength ?? DEFAULT_PASSWORD_POLICY.passwordMinLength),
      passwordDurationDays: String(
        detail?.passwordDurationDays ?? DEFAULT_PASSWORD_POLICY.passwordDurationDays,
      ),
      cardBins: detail?.cardBins ?? '',
      accountDigits: String(detail?.accountDigits ?? ACCOUNT_DIGITS_DEFAULT),
    },
  });
  const chosenGroup = form.watch('issuerGroupId');
  const label = (field: keyof IssuerFormValues) =>
    field === 'name1' || field === 'name2'
      ? t(`app.org.field.${field}`)
      : field === 'passwordMinLength'
        ? t(
            'app.issuers.form.passwordMinLength',
            String(LIMITS.passwordMinLength),
            String(LIMITS.passwordMaxLength),
          )
        : field === 'passwordDurationDays'
          ? t(
              'app.issuers.form.passwordDurationDays',
              String(LIMITS.passwordDurationMinDays),
              String(LIMITS.passwordDurationMaxDays),
            )
          : field === 'accountDigits'
            ? t('app.issuers.form.accountDigits', String(ACCOUNT_DIGITS_MIN), String(ACCOUNT_DIGITS_MAX))
            : t(`app.issuers.field.${field === 'issuerGroupId' ? 'issuerGroup' : field}`);

  const submit = async (v: IssuerFormValues) => {
    const common = {
      name1: v.name1.trim(),
      name2: v.name2.trim(),
      ica: v.ica.trim(),
      bankNumber: v.bankNumber.trim(),
      cobrand: v.cobrand.trim() || null,
      passwordMinLength: wholeNumber(v.passwordMinLength),
      passwordDurationDays: wholeNumber(v.passwordDurationDays),
      cardBins: v.cardBins.trim(),
      accountDigits: wholeNumber(v.accountDigits),
      ...(mayChooseGroup ? { issuerGroupId: v.issuerGroupId ? Number(v.issuerGroupId) : null } : {}),
    };
    const saved =
      mode === 'create'
        ? await save.mutateAsync({ number: undefined, body: { number: v.number.trim(), ...common } })
        : await save.mutateAsync({ number: detail?.number ?? '', body: common });
    navigate(`/issuers/${encodeURIComponent(saved.number)}`, {
      state: { done: mode === 'create' ? 'created' : 'saved' },
    });
  };

  const visible: (keyof IssuerFormValues)[] = [
    ...(mode === 'create' ? (['number'] as const) : []),
    'name1',
    'name2',
    'ica',
    'bankNumber',
    ...(mayChooseGroup ? (['issuerGroupId'] as const) : []),
    'cobrand',
    'passwordMinLength',
    'passwordDurationDays',
    'cardBins',
    'accountDigits',
  ];
  const summaryFields = Object.fromEntries(
    visible.map((name) => [name, { id: `issuer-${name}`, label: label(name) }]),
  );

  const REQUIRED = new Set<string>(['number', 'name1', 'ica', 'bankNumber']);
  const field = (name: Exclude<keyof IssuerFormValues, 'issuerGroupId'>, numeric = false) => (
    <TextField
      control={form.control}
      name={name}
      id={`issuer-${name}`}
      label={label(name)}
      autoComplete="off"
      inputMode={numeric ? 'numeric' : undefined}
      required={REQUIRED.has(name)}
    />
  );

  return (
    <AppForm
      form={form}
      onSubmit={submit}
      id="issuer-form"
      errorId="issuer-form-errors"
      fields={summaryFields}
      requiredNote
    >
      {mode === 'create' ? field('number', true) : null}
      {field('name1')}
      {field('name2')}
      {field('ica', true)}
      {field('bankNumber', true)}
      {mayChooseGroup ? (
        <SelectField
          control={form.control}
          name="issuerGroupId"
          id="issuer-issuerGroupId"
          label={label('issuerGroupId')}
          placeholder={t('app.issuers.none')}
          options={groups
            .filter((g) => g.active || String(g.id) === chosenGroup)
            .map((g) => ({ value: String(g.id), label: g.name }))}
        />
      ) : null}
      {field('cobrand')}
      {field('passwordMinLength', true)}
      {field('passwordDurationDays', true)}
      <TextField
        control={form.control}
        name="cardBins"
        id="issuer-cardBins"
        label={label('cardBins')}
        hint={t('app.issuers.form.cardBinsHint')}
        autoComplete="off"
        inputMode="numeric"
      />
      {field('accountDigits', true)}
      <div className="app-actions">
        <SubmitButton form={form} id="issuer-save">
          {t('app.people.form.save')}
        </SubmitButton>
        <Link
          className="app-button"
          to={detail ? `/issuers/${encodeURIComponent(detail.number)}` : '/issuers'}
        >
          {t('common.cancel')}
        </Link>
      </div>
    </AppForm>
  );
}
