import { REAL_CARD_LIST_ORDER, type RealCardSummary } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { z } from 'zod';
import { listCsvUrl } from '../../api/accounts.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { ExportLink } from '../../frame/export-link.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useServerSort } from '../../frame/use-server-sort.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  criteriaSchema,
  realCardAliasFormSchema,
  realCardFormSchema,
  realCardSearchQuery,
  useCreateRealCard,
  useDeleteRealCard,
  useRenameRealCard,
  useSetRealCardActive,
} from './accounts-queries.ts';
import { checkCardholderCriteria } from './criteria.ts';
import { AccountStatusPill } from './shared.tsx';

const searchSchema = criteriaSchema({ status: z.string() });

type Done = KeySuffix<'app.realCards.done.'>;

/**
 * A new real card: its card number (never shown again in full) and the alias it is known by, both
 * checked as the server checks them (the server adds the issuer's BINs and duplicates).
 */
function NewRealCardForm({ number, onDone }: { number: string; onDone: () => void }) {
  const { t } = useApp();
  const create = useCreateRealCard(number);
  const form = useAppForm({
    schema: realCardFormSchema,
    defaultValues: { number: '', alias: '' },
    codeFields: {
      'account.number.duplicate': 'number',
      'account.number.bin': 'number',
      'card.alias.duplicate': 'alias',
    },
  });
  return (
    <AppForm
      form={form}
      id="real-card-form"
      errorId="real-card-form-error"
      requiredNote
      onSubmit={async (values) => {
        await create.mutateAsync({ number: values.number, alias: values.alias.trim() });
        form.reset({ number: '', alias: '' });
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="number"
        id="real-card-number"
        label={t('app.realCards.field.number')}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        required
      />
      <TextField
        control={form.control}
        name="alias"
        id="real-card-alias"
        label={t('app.realCards.field.alias')}
        hint={t('app.realCards.aliasHint')}
        autoComplete="off"
        required
      />
      <div className="app-actions">
        <SubmitButton form={form} id="real-card-submit">
          {t('app.realCards.create')}
        </SubmitButton>
      </div>
    </AppForm>
  );
}

/** The alias of one card, renamed in its row; the server checks it against the card's own number. */
function AliasForm({
  number,
  card,
  onDone,
  onCancel,
}: {
  number: string;
  card: RealCardSummary;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const rename = useRenameRealCard(number);
  const form = useAppForm({
    schema: realCardAliasFormSchema,
    defaultValues: { alias: card.alias },
    codeFields: { 'card.alias.duplicate': 'alias' },
  });
  return (
    <AppForm
      form={form}
      errorId={`real-card-rename-${card.id}-error`}
      inline
      onSubmit={async ({ alias }) => {
        await rename.mutateAsync({ id: card.id, alias: alias.trim() });
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="alias"
        id={`real-card-rename-${card.id}-alias`}
        label={t('app.realCards.renameLabel', card.alias)}
        autoComplete="off"
      />
      <SubmitButton form={form} id={`real-card-rename-${card.id}-submit`}>
        {t('app.people.form.save')}
      </SubmitButton>
      <button type="button" className="app-button" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </AppForm>
  );
}

/**
 * A company's real cards (issue 15 item 1): its card accounts without a cardholder, known by alias —
 * searched by alias or last four, filtered by status, paged by key; added, renamed, deactivated and
 * reactivated, deleted (or, when transactions refer to one, marked inactive instead, as the dialog says).
 */
export function RealCardsScreen() {
  const { t, tCount, problemText } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.realCards.heading', number));
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const paging = useKeysetCursor();
  const order = useServerSort(REAL_CARD_LIST_ORDER);
  const urlProblem = checkCardholderCriteria(q);
  const query = useQuery({
    ...realCardSearchQuery(number, {
      q: q.trim() || undefined,
      status: status || undefined,
      ...order.query,
      ...paging.cursor,
    }),
    enabled: !urlProblem,
    placeholderData: keepPreviousData,
  });
  const activate = useSetRealCardActive(number);
  const remove = useDeleteRealCard(number);
  const [done, setDone] = useState<Done | undefined>();
  const [renaming, setRenaming] = useState<number | undefined>();
  const [confirming, setConfirming] = useState<{ card: RealCardSummary; action: 'toggle' | 'delete' }>();
  const form = useAppForm({ schema: searchSchema, defaultValues: { q, status } });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the form's
  useEffect(() => {
    form.reset({ q, status });
    if (urlProblem) form.setError('q', { type: 'manual', message: urlProblem });
  }, [q, status, urlProblem]);

  const go = (next: { q: string; status: string }) => {
    const search = new URLSearchParams();
    if (next.q.trim()) search.set('q', next.q.trim());
    if (next.status) search.set('status', next.status);
    setParams(order.keep(search));
  };

  const result = query.isEnabled ? query.data : undefined;
  const canModify = result?.canModify === true;
  const failed = query.isError
    ? problemOf(query.error)
    : activate.isError
      ? problemOf(activate.error)
      : remove.isError
        ? problemOf(remove.error)
        : undefined;

  const act = (card: RealCardSummary, action: 'toggle' | 'delete') => {
    setConfirming(undefined);
    setDone(undefined);
    if (action === 'toggle')
      activate.mutate(
        { id: card.id, active: !card.active },
        { onSuccess: () => setDone(card.active ? 'deactivated' : 'reactivated') },
      );
    else
      remove.mutate(card.id, {
        onSuccess: (answer) => setDone(answer.outcome === 'deleted' ? 'deleted' : 'deactivatedInUse'),
      });
  };

  const columns = useMemo((): DataColumn<RealCardSummary>[] => {
    const col = dataColumns<RealCardSummary>();
    const shown = [
      col.accessor('alias', {
        header: t('app.realCards.field.alias'),
        enableHiding: false,
        meta: { rowHeader: true },
        cell: ({ row: { original: card } }) =>
          renaming === card.id ? (
            <AliasForm
              number={number}
              card={card}
              onDone={() => {
                setRenaming(undefined);
                setDone('renamed');
              }}
              onCancel={() => setRenaming(undefined)}
            />
          ) : (
            card.alias
          ),
      }),
      col.accessor('maskedNumber', {
        header: t('app.realCards.field.number'),
        cell: ({ row: { original: card } }) => (
          <Link
            className="app-mono"
            to={`/organisation/${encodeURIComponent(number)}/accounts/${card.accountId}`}
            aria-label={t('app.realCards.accountLabel', card.alias)}
          >
            {card.maskedNumber}
          </Link>
        ),
      }),
      col.accessor('accountStatus', {
        header: t('app.realCards.field.accountStatus'),
        cell: (cell) => <AccountStatusPill status={cell.getValue()} />,
      }),
      col.accessor((card) => (card.inUse ? 1 : 0), {
        id: 'inUse',
        header: t('app.realCards.field.inUse'),
        cell: ({ row }) => t(row.original.inUse ? 'app.realCards.inUse.yes' : 'app.realCards.inUse.no'),
      }),
      col.accessor((card) => (card.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ];
    return col.columns(shown);
  }, [t, number, renaming]);

  // The row's actions in its menu (as every grid): rename, deactivate or reactivate, delete (confirmed).
  const rowActions: RowActions<RealCardSummary> | undefined = canModify
    ? {
        label: (card) => t('app.table.rowActions', card.alias),
        actions: (card) => [
          { id: 'rename', label: t('app.accounts.groups.rename'), onAction: () => setRenaming(card.id) },
          {
            id: card.active ? 'deactivate' : 'reactivate',
            label: t(`app.people.action.${card.active ? 'deactivate' : 'reactivate'}`),
            danger: card.active,
            onAction: () => setConfirming({ card, action: 'toggle' }),
          },
          {
            id: 'delete',
            label: t('app.realCards.delete'),
            danger: true,
            onAction: () => setConfirming({ card, action: 'delete' }),
          },
        ],
      }
    : undefined;

  const confirmCard = confirming?.card;
  const confirmTitle = !confirming
    ? ''
    : confirming.action === 'delete'
      ? t('app.realCards.deleteLabel', confirming.card.alias)
      : t(
          `app.realCards.${confirming.card.active ? 'deactivateLabel' : 'reactivateLabel'}`,
          confirming.card.alias,
        );
  const any = t('app.people.search.any');

  return (
    <>
      <h1>{t('app.realCards.heading', number)}</h1>
      <CompanyTabs number={number} />
      <p>{t('app.realCards.intro')}</p>
      {result?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <p role="status" id="real-cards-done" className="app-done">
        {done ? t(`app.realCards.done.${done}`) : ''}
      </p>
      {canModify ? (
        <section aria-labelledby="real-card-create-heading">
          <h2 id="real-card-create-heading">{t('app.realCards.createHeading')}</h2>
          <NewRealCardForm number={number} onDone={() => setDone('created')} />
        </section>
      ) : null}
      <search>
        <AppForm form={form} onSubmit={async (values) => go(values)} errorId="real-card-search-error" inline>
          <TextField
            control={form.control}
            name="q"
            id="real-card-q"
            type="search"
            label={t('app.realCards.criteria')}
          />
          <SelectField
            control={form.control}
            name="status"
            id="real-card-status"
            label={t('app.people.field.status')}
            placeholder={any}
            options={[
              { value: 'active', label: t('app.status.Active') },
              { value: 'inactive', label: t('app.status.Inactive') },
            ]}
          />
          <SubmitButton form={form} id="real-card-search-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>
      <ErrorSummary id="real-cards-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {query.isLoading ? <p>{t('common.loading')}</p> : null}
        {result && !query.isError ? (
          <p id="real-card-count">
            {result.total === 0 ? t('app.realCards.none') : tCount('app.realCards.count', result.total)}
          </p>
        ) : null}
      </div>
      {result && !query.isError && result.rows.length > 0 ? (
        <DataTable
          id="real-card-results"
          caption={t('app.realCards.results')}
          columns={columns}
          data={result.rows}
          getRowId={(card) => String(card.id)}
          loading={query.isFetching}
          {...order.table}
          rowActions={rowActions}
          paging={paging.pager('real-card', result)}
          toolbar={
            <ExportLink
              id="real-cards-export"
              href={listCsvUrl(number, 'real-cards', {
                q: q.trim() || undefined,
                status: status || undefined,
                ...order.query,
              })}
            />
          }
        />
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirmTitle}
        body={
          confirmCard && confirming?.action === 'delete'
            ? t(confirmCard.inUse ? 'app.realCards.confirm.deleteInUse' : 'app.realCards.confirm.delete')
            : t('app.accounts.groups.confirmBody')
        }
        confirmLabel={
          !confirming
            ? ''
            : confirming.action === 'delete'
              ? t('app.realCards.delete')
              : t(`app.people.action.${confirming.card.active ? 'deactivate' : 'reactivate'}`)
        }
        onConfirm={() => {
          if (confirming) act(confirming.card, confirming.action);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
