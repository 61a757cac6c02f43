import { type CalendarDate, parseDate } from '@internationalized/date';
import { useImperativeHandle, useRef } from 'react';
import {
  DatePicker as AriaDatePicker,
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DateSegment,
  Dialog,
  Group,
  Heading,
  Label,
  Popover,
  Text,
} from 'react-aria-components';
import { useApp } from '../../lib/app-context.tsx';

/** What a form library needs to move focus to the field (the first date segment). */
export interface FocusHandle {
  focus: () => void;
}

/** `YYYY-MM-DD` → a calendar date, or null when empty or not a real date. */
export function toCalendarDate(value: string | null | undefined): CalendarDate | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  try {
    const date = parseDate(value);
    return date.toString() === value ? date : null;
  } catch {
    return null;
  }
}

export interface DatePickerProps {
  /** The segment group's element id (the field's name for tests and error links); errors `{id}-error`. */
  id: string;
  label: string;
  /** The date as `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  /** Further ids describing the field (e.g. a hint shared by a From/To pair). */
  describedBy?: string | undefined;
  /** Earliest and latest dates that may be chosen (`YYYY-MM-DD`). */
  min?: string | undefined;
  max?: string | undefined;
  disabled?: boolean;
  onBlur?: () => void;
  /** Receives a focus handle (react-hook-form's `field.ref`). */
  ref?: React.Ref<FocusHandle>;
}

/**
 * A date field with a calendar (react-aria-components DatePicker): the date is typed segment by
 * segment in the user's locale order (arrow keys step a segment) or chosen from the calendar popover
 * (arrow keys move by day, Page Up/Down by month, Escape closes). The value is a `YYYY-MM-DD` string.
 */
export function DatePicker({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  describedBy,
  min,
  max,
  disabled,
  onBlur,
  ref,
}: DatePickerProps) {
  const { t } = useApp();
  const group = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({
    focus: () => group.current?.querySelector<HTMLElement>('[role="spinbutton"]')?.focus(),
  }));
  return (
    <AriaDatePicker
      className={`cp-field app-date${error ? ' cp-field--invalid' : ''}`}
      value={toCalendarDate(value)}
      onChange={(date) => onChange(date ? date.toString() : '')}
      minValue={toCalendarDate(min)}
      maxValue={toCalendarDate(max)}
      isInvalid={Boolean(error)}
      isDisabled={disabled}
      onBlur={onBlur}
      granularity="day"
      shouldForceLeadingZeros
      aria-describedby={describedBy}
    >
      <Label className="cp-field__label">{label}</Label>
      <Group id={id} ref={group} className="app-date__group">
        <DateInput className="app-date__input">
          {(segment) => <DateSegment segment={segment} className="app-date__segment" />}
        </DateInput>
        <Button className="app-date__button" aria-label={t('app.date.openCalendar')}>
          <span className="app-icon app-icon--calendar" aria-hidden="true" />
        </Button>
      </Group>
      {hint ? (
        <Text slot="description" id={`${id}-hint`} className="app-hint">
          {hint}
        </Text>
      ) : null}
      {error ? (
        <Text slot="errorMessage" id={`${id}-error`} className="cp-field__error">
          {error}
        </Text>
      ) : null}
      <Popover className="app-popover" placement="bottom start">
        <Dialog className="app-calendar-dialog" aria-label={label}>
          <Calendar className="app-calendar">
            <header className="app-calendar__header">
              <Button slot="previous" className="app-calendar__nav" aria-label={t('app.date.previousMonth')}>
                <span aria-hidden="true">‹</span>
              </Button>
              <Heading className="app-calendar__heading" />
              <Button slot="next" className="app-calendar__nav" aria-label={t('app.date.nextMonth')}>
                <span aria-hidden="true">›</span>
              </Button>
            </header>
            <CalendarGrid className="app-calendar__grid">
              {(date) => <CalendarCell date={date} className="app-calendar__cell" />}
            </CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </AriaDatePicker>
  );
}
