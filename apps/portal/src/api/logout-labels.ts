import type { LogoutLabels } from '@cardportal/domain';
import { requestJson } from './client.ts';

/**
 * `GET /sdportal/rest/logoutrest/logoutLabelsAndReturnLink`; the co-brand goes along as cobrandHost
 * so the server answers that co-brand's texts and federated logout URL.
 */
export function getLogoutLabels(cobrandHost: string, signal?: AbortSignal): Promise<Partial<LogoutLabels>> {
  const query = new URLSearchParams({ cobrandHost });
  return requestJson<Partial<LogoutLabels>>(`/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?${query}`, {
    signal,
  });
}
