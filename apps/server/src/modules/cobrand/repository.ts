import { createHash } from 'node:crypto';
import { type Cobrand, cobrandSchema } from '@cardportal/domain';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { cobrandAssets, cobrands } from '../../db/schema.ts';

export async function findCobrand(db: Executor, name: string): Promise<Cobrand | undefined> {
  const [row] = await db
    .select({ record: cobrands.record })
    .from(cobrands)
    .where(eq(cobrands.name, name))
    .limit(1);
  return row ? cobrandSchema.parse(row.record) : undefined;
}

export async function findCobrandNameByAbbreviation(
  db: Executor,
  abbreviation: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ name: cobrands.name })
    .from(cobrands)
    .where(eq(cobrands.abbreviation, abbreviation))
    .limit(1);
  return row?.name;
}

export async function listCobrands(db: Executor): Promise<Cobrand[]> {
  const rows = await db.select({ record: cobrands.record }).from(cobrands).orderBy(asc(cobrands.name));
  return rows.map((r) => cobrandSchema.parse(r.record));
}

export interface CobrandAsset {
  contentType: string;
  bytes: Uint8Array;
  etag: string;
}

export async function findAsset(db: Executor, assetPath: string): Promise<CobrandAsset | undefined> {
  const [row] = await db.select().from(cobrandAssets).where(eq(cobrandAssets.path, assetPath)).limit(1);
  return row ? { contentType: row.contentType, bytes: row.bytes, etag: row.etag } : undefined;
}

/** Which of these asset paths exist (paths only: no image bytes read). */
export async function existingAssetPaths(db: Executor, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const rows = await db
    .select({ path: cobrandAssets.path })
    .from(cobrandAssets)
    .where(inArray(cobrandAssets.path, [...paths]));
  return new Set(rows.map((row) => row.path));
}

export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
};

/** Inserts or replaces co-brands and their images in one transaction: all or nothing. */
export async function saveCobrands(
  db: Db,
  records: Cobrand[],
  assets: { path: string; bytes: Uint8Array }[] = [],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const record of records) {
      await tx
        .insert(cobrands)
        .values({ name: record.name, abbreviation: record.abbreviation, record })
        .onConflictDoUpdate({
          target: cobrands.name,
          set: { abbreviation: record.abbreviation, record, updatedAt: sql`now()` },
        });
    }
    for (const asset of assets) {
      const ext = asset.path.split('.').pop() ?? '';
      const contentType = IMAGE_TYPES[ext];
      if (!contentType) throw new Error(`${asset.path}: only png, jpg and gif images are accepted`);
      const etag = `"${createHash('sha256').update(asset.bytes).digest('base64url').slice(0, 27)}"`;
      await tx
        .insert(cobrandAssets)
        .values({ path: asset.path, contentType, bytes: asset.bytes, etag })
        .onConflictDoUpdate({
          target: cobrandAssets.path,
          set: { contentType, bytes: asset.bytes, etag, updatedAt: sql`now()` },
        });
    }
  });
}
