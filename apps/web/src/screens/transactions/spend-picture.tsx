import type { SpendSummary } from '@cardportal/domain';
import { useQuery } from '@tanstack/react-query';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { useId, useState } from 'react';
import { EmptyState } from '../../frame/empty-state.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { spendQuery } from './transactions-queries.ts';

const WIDTH = 520;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 40, left: 84 };

/**
 * Bars of net spend (minor units scaled for drawing only: the figures shown are the exact amounts of
 * the table beside it). The drawing is one image to assistive technology, named by its caption; the
 * table (`{id}-table`) carries the same figures to read.
 */
function Bars({
  id,
  label,
  rows,
  exponent,
  currency,
}: {
  id: string;
  label: string;
  rows: { key: string; name: string; minor: string }[];
  exponent: number;
  currency: string;
}) {
  const { format } = useApp();
  // Drawing only: a bar's height may be approximate; no figure the user reads comes from it.
  const values = rows.map((r) => Number(BigInt(r.minor)) / 10 ** exponent);
  const x = scaleBand<string>({
    domain: rows.map((r) => r.key),
    range: [0, WIDTH - MARGIN.left - MARGIN.right],
    padding: 0.25,
  });
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const y = scaleLinear<number>({
    domain: [bottom, top === bottom ? bottom + 1 : top],
    range: [HEIGHT - MARGIN.top - MARGIN.bottom, 0],
    nice: true,
  });
  const nameOf = new Map(rows.map((r) => [r.key, r.name]));
  return (
    <svg
      id={id}
      role="img"
      aria-label={label}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="app-chart"
      preserveAspectRatio="xMinYMin meet"
    >
      <Group left={MARGIN.left} top={MARGIN.top}>
        {values.map((value, i) => {
          const key = rows[i]?.key ?? '';
          const zero = y(0) ?? 0;
          const end = y(value) ?? 0;
          return (
            <Bar
              key={key}
              x={x(key) ?? 0}
              y={Math.min(zero, end)}
              width={x.bandwidth()}
              height={Math.abs(zero - end)}
              className={value < 0 ? 'app-chart__bar app-chart__bar--credit' : 'app-chart__bar'}
            />
          );
        })}
        <AxisLeft
          scale={y}
          numTicks={4}
          tickFormat={(v) =>
            format.money(BigInt(Math.round(Number(v))) * 10n ** BigInt(exponent), currency, exponent)
          }
          tickClassName="app-chart__tick"
          axisClassName="app-chart__axis"
        />
        <AxisBottom
          top={HEIGHT - MARGIN.top - MARGIN.bottom}
          scale={x}
          tickFormat={(key) => nameOf.get(key) ?? key}
          tickClassName="app-chart__tick"
          axisClassName="app-chart__axis"
        />
      </Group>
    </svg>
  );
}

/**
 * The spend picture (issue 15 item 8) of the signed-in user's scope: net spend of one currency over six
 * months, by month and by merchant category, each drawn and tabled; the currency is chosen among those
 * spent in. Shown on the home page of every user who has transactions in scope.
 */
export function SpendPicture() {
  const { t, format, problemText } = useApp();
  const [currency, setCurrency] = useState<string | undefined>();
  const query = useQuery(spendQuery(currency));
  const picker = useId();
  const spend: SpendSummary | undefined = query.data;
  if (query.isError) return <p className="app-problem">{problemText(problemOf(query.error))}</p>;
  if (!spend) return <p>{t('common.loading')}</p>;
  if (!spend.currency) return <EmptyState id="spend-empty">{t('app.transactions.spend.none')}</EmptyState>;
  const shown = spend.currency;
  const money = (minor: string) => format.money(minor, shown, spend.exponent);
  const months = spend.byMonth.map((m) => ({
    key: m.month,
    name: format.month(m.month),
    minor: m.minor,
    count: m.count,
  }));
  const categories = spend.byCategory.map((c) => ({
    key: c.category,
    name: t(`app.transactions.category.${c.category}`),
    minor: c.minor,
    count: c.count,
  }));
  const period = t('app.transactions.spend.period', format.date(spend.from), format.date(spend.to));
  return (
    <div id="spend-picture" className="app-spend">
      <p id="spend-period">{period}</p>
      {spend.currencies.length > 1 ? (
        <p>
          <label htmlFor={picker}>{t('app.transactions.spend.currency')}</label>{' '}
          <select id={picker} value={shown} onChange={(event) => setCurrency(event.target.value)}>
            {spend.currencies.map((c) => (
              <option key={c.currency} value={c.currency}>
                {c.currency}
              </option>
            ))}
          </select>
        </p>
      ) : null}
      <div className="app-spend__charts">
        {[
          {
            id: 'spend-by-month',
            title: t('app.transactions.spend.byMonth', shown),
            head: t('app.transactions.spend.month'),
            rows: months,
          },
          {
            id: 'spend-by-category',
            title: t('app.transactions.spend.byCategory', shown),
            head: t('app.transactions.field.category'),
            rows: categories,
          },
        ].map((chart) => (
          <figure key={chart.id} className="app-spend__figure" aria-labelledby={`${chart.id}-caption`}>
            <figcaption id={`${chart.id}-caption`}>{chart.title}</figcaption>
            <Bars
              id={`${chart.id}-chart`}
              label={chart.title}
              rows={chart.rows}
              exponent={spend.exponent}
              currency={shown}
            />
            <details>
              <summary>{t('app.transactions.spend.asTable')}</summary>
              <table id={`${chart.id}-table`} className="app-table" aria-labelledby={`${chart.id}-caption`}>
                <thead>
                  <tr>
                    <th scope="col">{chart.head}</th>
                    <th scope="col" className="app-num">
                      {t('app.transactions.spend.net')}
                    </th>
                    <th scope="col" className="app-num">
                      {t('app.transactions.spend.count')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {chart.rows.map((row) => (
                    <tr key={row.key}>
                      <th scope="row">{row.name}</th>
                      <td className="app-num">{money(row.minor)}</td>
                      <td className="app-num">{format.number(row.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </figure>
        ))}
      </div>
    </div>
  );
}
