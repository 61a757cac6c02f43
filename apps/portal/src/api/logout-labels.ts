import type { LogoutLabels } from '@cardportal/domain';
import { requestJson } from './client.ts';

/**
 * `GET /sdportal/rest/logoutrest/logoutLabelsAndReturnLink`; the co-brand goes along as cobrandHost
 * so the server answers that co-brand's texts and federated logout URL, and the page's locale, so the
 * texts are in the language of the rest of the page (not the user_locale cookie's).
 */
export function getLogoutLabels(
  cobrandHost: string,
  locale: string,
  signal?: AbortSignal,
): Promise<Partial<LogoutLabels>> {
  const query = new URLSearchParams({ cobrandHost, locale });
  return requestJson<Partial<LogoutLabels>>(`/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?${query}`, {
    signal,
  });
}
