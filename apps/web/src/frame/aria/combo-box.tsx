import type { Ref } from 'react';
import {
  ComboBox as AriaComboBox,
  Button,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from 'react-aria-components';
import { useApp } from '../../lib/app-context.tsx';

export interface ComboBoxOption {
  id: string;
  label: string;
}

export interface ComboBoxProps {
  /** The text input's element id; its error line is `{id}-error`, its hint `{id}-hint`. */
  id: string;
  label: string;
  options: readonly ComboBoxOption[];
  /** The chosen option's id, or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** The error text (already translated), shown under the field and tied to the input. */
  error?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /**
   * Server-side suggestions: called as the user types (debounce in the query key's owner); the screen
   * then passes the matching `options`. Without it, the options are filtered here.
   */
  onInputChange?: (text: string) => void;
}

/**
 * A text field with a list of suggestions (react-aria-components ComboBox): typing filters, arrow keys
 * move through the list, Enter chooses, Escape closes; the choice is an option's id.
 */
export function ComboBox({
  id,
  label,
  options,
  value,
  onChange,
  error,
  hint,
  disabled,
  onBlur,
  inputRef,
  onInputChange,
}: ComboBoxProps) {
  const { t } = useApp();
  return (
    <AriaComboBox
      className={`cp-field app-combo${error ? ' cp-field--invalid' : ''}`}
      defaultItems={options}
      value={value}
      onChange={(key) => onChange(key === null ? null : String(key))}
      onInputChange={onInputChange}
      isInvalid={Boolean(error)}
      isDisabled={disabled}
      onBlur={onBlur}
      menuTrigger="input"
      allowsEmptyCollection
    >
      <Label className="cp-field__label">{label}</Label>
      <div className="app-combo__control">
        <Input id={id} ref={inputRef} className="cp-field__input app-combo__input" />
        <Button className="app-combo__button" aria-label={t('app.comboBox.showSuggestions')}>
          <span className="app-icon app-icon--chevron" aria-hidden="true" />
        </Button>
      </div>
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
        <ListBox
          className="app-listbox"
          renderEmptyState={() => <p className="app-listbox__empty">{t('app.comboBox.noMatches')}</p>}
        >
          {(option: ComboBoxOption) => (
            <ListBoxItem id={option.id} textValue={option.label} className="app-listbox__item">
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
