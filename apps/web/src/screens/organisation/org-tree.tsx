import type { OrgPointNode } from '@cardportal/domain';
import { useState } from 'react';
import { ActionMenu } from '../../frame/aria/menu.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { type TextKey, useApp } from '../../lib/app-context.tsx';

export type PointAction = 'edit' | 'add' | 'deactivate' | 'reactivate' | 'delete';

const ACTION_LABEL: Record<PointAction, TextKey> = {
  edit: 'app.org.point.action.edit',
  add: 'app.org.point.action.add',
  deactivate: 'app.people.action.deactivate',
  reactivate: 'app.people.action.reactivate',
  delete: 'app.org.action.delete',
};

/**
 * A company's reporting structure as a nested list: each org point with children has a disclosure
 * button (aria-expanded, aria-controls) that shows or hides the list below it (native buttons: Tab /
 * Enter / Space work without extra key handling); each org point's actions are in its action menu.
 */
export function OrgTree({
  roots,
  label,
  canModify,
  onAction,
}: {
  roots: OrgPointNode[];
  label: string;
  canModify: boolean;
  onAction: (action: PointAction, point: OrgPointNode) => void;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (number: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(number)) next.delete(number);
      else next.add(number);
      return next;
    });
  return (
    <ul className="app-tree" id="org-tree" aria-label={label}>
      {roots.map((node) => (
        <Node
          key={node.number}
          node={node}
          collapsed={collapsed}
          toggle={toggle}
          canModify={canModify}
          onAction={onAction}
        />
      ))}
    </ul>
  );
}

function Node({
  node,
  collapsed,
  toggle,
  canModify,
  onAction,
}: {
  node: OrgPointNode;
  collapsed: ReadonlySet<string>;
  toggle: (number: string) => void;
  canModify: boolean;
  onAction: (action: PointAction, point: OrgPointNode) => void;
}) {
  const { t } = useApp();
  const open = !collapsed.has(node.number);
  const id = `org-point-${node.number}`;
  const name = `${node.number} ${node.name1}`;
  const actions: PointAction[] = canModify
    ? ['edit', 'add', node.active ? 'deactivate' : 'reactivate', 'delete']
    : [];
  return (
    <li>
      <div className="app-tree__row">
        {node.children.length > 0 ? (
          <button
            type="button"
            className="app-tree__toggle"
            aria-expanded={open}
            aria-controls={`${id}-children`}
            aria-label={t('app.org.tree.toggle', name)}
            onClick={() => toggle(node.number)}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="app-tree__spacer" />
        )}
        <span id={`${id}-label`} className="app-tree__label">
          <strong>{node.number}</strong> {node.name1}
          {node.name2 ? ` ${node.name2}` : ''}
        </span>{' '}
        <span className="app-tree__level">{t('app.org.point.level', String(node.reportingLevel))}</span>{' '}
        {node.active ? null : <ActivePill active={false} />}
        {actions.length > 0 ? (
          <ActionMenu
            id={`${id}-actions`}
            small
            label={t('app.table.actions')}
            ariaLabel={t('app.org.point.rowActions', name)}
            actions={actions.map((action) => ({
              id: action,
              label: t(ACTION_LABEL[action]),
              danger: action === 'delete' || action === 'deactivate',
              onAction: () => onAction(action, node),
            }))}
          />
        ) : null}
      </div>
      {node.children.length > 0 ? (
        <ul id={`${id}-children`} hidden={!open}>
          {node.children.map((child) => (
            <Node
              key={child.number}
              node={child}
              collapsed={collapsed}
              toggle={toggle}
              canModify={canModify}
              onAction={onAction}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** Every org point of the forest, depth first (for the reports-to choices). */
export function flatten(roots: OrgPointNode[]): OrgPointNode[] {
  return roots.flatMap((node) => [node, ...flatten(node.children)]);
}
