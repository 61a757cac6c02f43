/**
 * "Recently viewed" items of the home page, kept per user in localStorage (key `cp.recent.{userId}`),
 * newest first, at most 10. Only a kind, an id and a display label: never anything secret.
 */
export interface RecentItem {
  kind: 'user';
  id: string;
  label: string;
}

export const RECENT_MAX = 10;
const keyFor = (userId: string) => `cp.recent.${userId.toLowerCase()}`;

function valid(item: unknown): item is RecentItem {
  if (!item || typeof item !== 'object') return false;
  const { kind, id, label } = item as Record<string, unknown>;
  return kind === 'user' && typeof id === 'string' && typeof label === 'string';
}

export function readRecent(userId: string): RecentItem[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyFor(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(valid).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

export function rememberRecent(userId: string, item: RecentItem): void {
  const clean: RecentItem = { kind: item.kind, id: item.id.slice(0, 64), label: item.label.slice(0, 120) };
  const next = [
    clean,
    ...readRecent(userId).filter((i) => !(i.kind === clean.kind && i.id === clean.id)),
  ].slice(0, RECENT_MAX);
  try {
    localStorage.setItem(keyFor(userId), JSON.stringify(next));
  } catch {
    // storage full or unavailable: the list is a convenience
  }
}
