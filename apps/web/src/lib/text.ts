/** `t(key, ...args)` over a bundle with `{0}` placeholders; an absent key renders empty, never the key. */
export function makeT(texts: Record<string, string>) {
  return (key: string, ...args: string[]): string =>
    (texts[key] ?? '').replace(/\{(\d+)\}/g, (match, i: string) => args[Number(i)] ?? match);
}
