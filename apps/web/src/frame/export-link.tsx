import { useApp } from '../lib/app-context.tsx';

/**
 * A list's "Export CSV" (issue 20 item 3): a plain link the browser downloads with the session
 * cookie. The server exports every match of the list's search — all its pages, in the order chosen —
 * not just the page on screen; `href` carries the search and the order, never a cursor.
 */
export function ExportLink({ id, href }: { id: string; href: string }) {
  const { t } = useApp();
  return (
    <a className="app-button app-button--small" id={id} href={href} download>
      {t('app.table.export')}
    </a>
  );
}
