import type { ProgramOptionState } from '@cardportal/domain';
import { createContext, useContext } from 'react';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { type App, useApp } from '../../lib/app-context.tsx';
import type { OptionsLevel } from './issuers-queries.ts';

/** A company's own setting on screen: on, off, or none (as its issuer). */
type CompanyChoice = 'inherit' | 'on' | 'off';

const choiceOf = (value: boolean | null): CompanyChoice =>
  value === null ? 'inherit' : value ? 'on' : 'off';
const settingOf = (choice: CompanyChoice): boolean | null => (choice === 'inherit' ? null : choice === 'on');

/** The screen's choices not saved yet, for the cells (the columns stay stable while they change). */
export interface OptionsDraft {
  /** The option's value as chosen on screen (the saved one until changed). */
  current: (option: ProgramOptionState) => boolean | null;
  choose: (option: ProgramOptionState, value: boolean | null) => void;
  disabled: boolean;
}
export const OptionsDraftContext = createContext<OptionsDraft>({
  current: () => null,
  choose: () => undefined,
  disabled: true,
});

const idOf = (option: ProgramOptionState) => `option-${option.key}`;

/** The issuer's own switch (issuer level). */
function IssuerSwitch({ option }: { option: ProgramOptionState }) {
  const { t } = useApp();
  const { current, choose, disabled } = useContext(OptionsDraftContext);
  const id = idOf(option);
  const on = current(option) === true;
  return (
    <label className="app-check">
      <input
        type="checkbox"
        role="switch"
        aria-checked={on}
        id={id}
        aria-labelledby={`${id}-label`}
        checked={on}
        disabled={disabled}
        onChange={(e) => choose(option, e.target.checked)}
      />{' '}
      {on ? t('app.org.on') : t('app.org.off')}
    </label>
  );
}

/** The company's own setting (company level): as issuer, on (only where the issuer has it on), off. */
function CompanyChoiceSelect({ option }: { option: ProgramOptionState }) {
  const { t } = useApp();
  const { current, choose, disabled } = useContext(OptionsDraftContext);
  const id = idOf(option);
  return (
    <>
      <select
        id={id}
        className="cp-field__input"
        aria-labelledby={`${id}-label`}
        aria-describedby={option.issuer ? undefined : `${id}-hint`}
        value={choiceOf(current(option))}
        disabled={disabled}
        onChange={(e) => choose(option, settingOf(e.target.value as CompanyChoice))}
      >
        <option value="inherit">{t('app.options.inherit')}</option>
        <option value="on" disabled={!option.issuer}>
          {t('app.org.on')}
        </option>
        <option value="off">{t('app.org.off')}</option>
      </select>
      {option.issuer ? null : (
        <span className="app-hint" id={`${id}-hint`}>
          {t('app.options.issuerOff')}
        </span>
      )}
    </>
  );
}

const col = dataColumns<ProgramOptionState>();

/**
 * The program options grid: the option (names the row), the issuer's setting (a switch at issuer
 * level), the company's own setting (company level) and what is in effect. The whole list: it sorts
 * itself.
 */
export function optionsColumns({
  t,
  level,
}: Pick<App, 't'> & { level: OptionsLevel }): DataColumn<ProgramOptionState>[] {
  const onOff = (value: boolean | null) => (value ? t('app.org.on') : t('app.org.off'));
  return col.columns([
    col.accessor((option) => t(`app.programOption.${option.key}`), {
      id: 'option',
      header: t('app.options.option'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row, getValue }) => <span id={`${idOf(row.original)}-label`}>{getValue()}</span>,
    }),
    level === 'issuer'
      ? col.display({
          id: 'issuer',
          header: t('app.options.issuer'),
          cell: ({ row }) => <IssuerSwitch option={row.original} />,
        })
      : col.accessor((option) => onOff(option.issuer), { id: 'issuer', header: t('app.options.issuer') }),
    ...(level === 'company'
      ? [
          col.display({
            id: 'company',
            header: t('app.options.company'),
            cell: ({ row }) => <CompanyChoiceSelect option={row.original} />,
          }),
        ]
      : []),
    col.accessor((option) => onOff(option.effective), {
      id: 'effective',
      header: t('app.options.effective'),
      cell: ({ row, getValue }) => <span id={`${idOf(row.original)}-effective`}>{getValue()}</span>,
    }),
  ]);
}
