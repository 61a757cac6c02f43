import type { Key } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';

/** One entry of an action menu: an action (`onAction`) or a link inside the application (`href`). */
export interface MenuAction {
  id: string;
  label: string;
  onAction?: () => void;
  /** A path of the application (`/people/x`): navigates through react-router. */
  href?: string;
  /** Shown as a destructive action (its own colour); confirm it with a ConfirmDialog. */
  danger?: boolean;
  disabled?: boolean;
}

interface TriggerProps {
  /** The trigger button's visible text. */
  label: string;
  /** The trigger's accessible name when it must say more than its text (it must contain the text). */
  ariaLabel?: string | undefined;
  /** The trigger button's element id. */
  id?: string | undefined;
  small?: boolean;
}

const triggerClass = (small?: boolean) => `app-button app-menu-trigger${small ? ' app-button--small' : ''}`;

/**
 * A menu button with actions (react-aria-components Menu): arrow keys move, Enter or Space acts,
 * typing a letter jumps, Escape closes and focus returns to the button.
 */
export function ActionMenu({
  label,
  ariaLabel,
  id,
  small,
  actions,
}: TriggerProps & { actions: readonly MenuAction[] }) {
  const act = (key: Key) => actions.find((a) => a.id === key)?.onAction?.();
  return (
    <MenuTrigger>
      <Button id={id} className={triggerClass(small)} aria-label={ariaLabel}>
        {label}
      </Button>
      <Popover className="app-popover" placement="bottom end">
        <Menu className="app-menu" onAction={act}>
          {actions.map((action) => (
            <MenuItem
              key={action.id}
              id={action.id}
              href={action.href}
              isDisabled={action.disabled}
              className={`app-menu__item${action.danger ? ' app-menu__item--danger' : ''}`}
            >
              {action.label}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** One entry of a choice menu. */
export interface MenuChoice {
  id: string;
  label: string;
  disabled?: boolean;
}

/**
 * A menu of checkable choices (`menuitemcheckbox`, e.g. the columns a table shows): it stays open
 * while the user ticks several; `minimum` choices always stay ticked.
 */
export function ChoiceMenu({
  label,
  ariaLabel,
  id,
  small,
  choices,
  selected,
  onChange,
  minimum = 1,
}: TriggerProps & {
  choices: readonly MenuChoice[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  minimum?: number;
}) {
  return (
    <MenuTrigger>
      <Button id={id} className={triggerClass(small)} aria-label={ariaLabel}>
        {label}
      </Button>
      <Popover className="app-popover" placement="bottom end">
        <Menu
          className="app-menu"
          selectionMode="multiple"
          selectedKeys={new Set(selected)}
          shouldCloseOnSelect={false}
          onSelectionChange={(keys) => {
            const next = keys === 'all' ? choices.map((c) => c.id) : [...keys].map(String);
            if (next.length >= minimum) onChange(next);
          }}
        >
          {choices.map((choice) => (
            <MenuItem
              key={choice.id}
              id={choice.id}
              isDisabled={choice.disabled}
              className="app-menu__item app-menu__item--check"
            >
              {({ isSelected }) => (
                <>
                  <span className="app-menu__mark" aria-hidden="true">
                    {isSelected ? '✓' : ''}
                  </span>
                  {choice.label}
                </>
              )}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
