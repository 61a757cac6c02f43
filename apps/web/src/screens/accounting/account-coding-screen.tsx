import type { AccountCoding, AccountingScheme } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { accountCodingQuery, schemesQuery, useSetAccountCoding } from './accounting-queries.ts';

const codingFormSchema = z.object({ schemeId: z.string(), defaults: z.record(z.string(), z.string()) });

/**
 * The form: the account's own scheme (or none: its group's or the company's default) and a default
 * for each code of the scheme that would then apply — a customer code of a list code, or text.
 */
function CodingForm({
  number,
  accountId,
  coding,
  schemes,
  onDone,
}: {
  number: string;
  accountId: string;
  coding: AccountCoding;
  schemes: readonly AccountingScheme[];
  onDone: () => void;
}) {
  const { t } = useApp();
  const save = useSetAccountCoding(number, accountId);
  const form = useAppForm({
    schema: codingFormSchema,
    defaultValues: {
      schemeId: coding.ownScheme ? String(coding.ownScheme.id) : '',
      defaults: Object.fromEntries(coding.defaults.map((d) => [String(d.code.id), d.value ?? ''])),
    },
  });
  const schemeId = form.watch('schemeId');
  const effective = schemes.find(
    (s) => s.id === (schemeId === '' ? coding.inheritedScheme?.id : Number(schemeId)),
  );
  return (
    <AppForm
      form={form}
      id="coding-form"
      errorId="coding-form-error"
      onSubmit={async (values) => {
        const codes = new Set(effective?.lines.map((l) => String(l.code.id)) ?? []);
        await save.mutateAsync({
          schemeId: values.schemeId === '' ? null : Number(values.schemeId),
          defaults: Object.fromEntries(
            Object.entries(values.defaults).filter(([code, value]) => codes.has(code) && value.trim() !== ''),
          ),
        });
        onDone();
      }}
    >
      <SelectField
        control={form.control}
        name="schemeId"
        id="coding-scheme"
        label={t('app.accounting.coding.scheme')}
        placeholder={
          coding.inheritedScheme
            ? t('app.accounting.coding.inherited', coding.inheritedScheme.name)
            : t('app.accounting.coding.noScheme')
        }
        options={schemes.map((s) => ({ value: String(s.id), label: s.name }))}
      />
      {effective ? (
        <fieldset className="app-fieldset" id="coding-defaults">
          <legend>{t('app.accounting.coding.defaults', effective.name)}</legend>
          {effective.lines.map((line) => (
            <TextField
              key={line.code.id}
              control={form.control}
              name={`defaults.${line.code.id}`}
              id={`coding-default-${line.code.id}`}
              label={line.code.name}
              hint={line.subset ? t('app.accounting.coding.subsetHint', line.subset.name) : undefined}
              autoComplete="off"
              spellCheck={false}
            />
          ))}
        </fieldset>
      ) : null}
      <div className="app-actions">
        <SubmitButton form={form} id="coding-submit">
          {t('app.people.form.save')}
        </SubmitButton>
      </div>
    </AppForm>
  );
}

/**
 * A card account's coding (issue 16 item 2): the scheme that codes its transactions — its own, else its
 * group's, else the company's default — and its default value for each code of that scheme.
 */
export function AccountCodingScreen() {
  const { t, problemText } = useApp();
  const { number = '', id = '' } = useParams();
  usePageTitle(t('app.accounting.coding.heading'));
  const query = useQuery(accountCodingQuery(number, id));
  const schemes = useQuery(schemesQuery(number));
  const coding = query.data;
  const [done, setDone] = useState(false);
  const failed = query.isError ? problemOf(query.error) : undefined;
  const base = `/organisation/${encodeURIComponent(number)}`;
  return (
    <>
      <h1>{t('app.accounting.coding.heading')}</h1>
      <CompanyTabs number={number} />
      <p>
        <Link to={`${base}/accounts/${encodeURIComponent(id)}`} id="coding-back">
          {t('app.accounting.coding.back')}
        </Link>
      </p>
      {coding?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="coding-error" message={failed ? problemText(failed) : undefined} />
      <p role="status" id="coding-done" className="app-done">
        {done ? t('app.accounting.coding.saved') : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {coding ? (
        <dl className="app-facts" id="coding-facts">
          <dt>{t('app.accounting.coding.inEffect')}</dt>
          <dd id="coding-in-effect">
            {coding.scheme
              ? `${coding.scheme.name} (${t(`app.accounting.coding.source.${coding.source}`)})`
              : t('app.accounting.coding.noScheme')}
          </dd>
          {coding.defaults.map((d) => (
            <div key={d.code.id} className="app-facts__row">
              <dt>{d.code.name}</dt>
              <dd>{d.value ? `${d.value}${d.description ? ` – ${d.description}` : ''}` : t('app.none')}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {coding?.canModify && schemes.data ? (
        <section aria-labelledby="coding-edit-heading">
          <h2 id="coding-edit-heading">{t('app.accounting.coding.edit')}</h2>
          <CodingForm
            key={JSON.stringify(coding)}
            number={number}
            accountId={id}
            coding={coding}
            schemes={schemes.data.rows}
            onDone={() => setDone(true)}
          />
        </section>
      ) : null}
    </>
  );
}
