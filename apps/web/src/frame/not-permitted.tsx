import { Link } from 'react-router';
import { useApp } from '../lib/app-context.tsx';
import { usePageTitle } from './use-page-title.ts';

/**
 * What a page says instead of its form or list when the signed-in user may not use it (issue 20 item
 * 2): a heading that names the refusal, the reason in words, and a way on — never a silent jump to the
 * home page, nor a form whose Save the server would refuse. `back` leads to what the user may see
 * instead (a record's read-only view); without it, the home page.
 */
export function NotPermitted({ reason, back }: { reason?: string; back?: { to: string; label: string } }) {
  const { t } = useApp();
  usePageTitle(t('app.notPermitted.heading'));
  return (
    <section aria-labelledby="not-permitted-heading" id="not-permitted">
      <h1 id="not-permitted-heading">{t('app.notPermitted.heading')}</h1>
      <NotPermittedNotice reason={reason} back={back} />
    </section>
  );
}

/** The refusal's words and the way on, under a screen's own heading. */
export function NotPermittedNotice({
  reason,
  back,
}: {
  reason?: string | undefined;
  back?: { to: string; label: string } | undefined;
}) {
  const { t } = useApp();
  return (
    <div id="not-permitted-notice">
      <p className="app-notice">{reason ?? t('app.notPermitted.body')}</p>
      <p>
        {back ? <Link to={back.to}>{back.label}</Link> : <Link to="/">{t('app.notPermitted.home')}</Link>}
      </p>
    </div>
  );
}

/** A path the application does not have: said so, with the way home (no silent redirect). */
export function NotFound() {
  const { t } = useApp();
  usePageTitle(t('app.notFound.heading'));
  return (
    <section aria-labelledby="not-found-heading" id="not-found">
      <h1 id="not-found-heading">{t('app.notFound.heading')}</h1>
      <p>{t('app.notFound.body')}</p>
      <p>
        <Link to="/">{t('app.notPermitted.home')}</Link>
      </p>
    </section>
  );
}
