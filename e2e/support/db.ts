import pg from 'pg';

/** SQL against the running server's embedded database over its shared socket (DESIGN §3). */
export async function sql(dataDir: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ host: dataDir, port: 5432, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}
