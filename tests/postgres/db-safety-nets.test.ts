import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../helpers/dispatch';
import { startTestApp, type TestApp } from '../helpers/harness';

/*
 * Issue 21: a transaction left open between statements is ended by PostgreSQL after a minute, so its row
 * locks cannot stall every other request on those rows for good. The setting travels with each pooled
 * connection (not with the server's configuration), so it is checked on one.
 */

describe.skipIf(!process.env.DATABASE_URL)('pooled PostgreSQL connections', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it('end a transaction left idle for a minute', async () => {
    const [row] = await query<{ idle_in_transaction_session_timeout: string }>(app, sql`show idle_in_transaction_session_timeout`);
    expect(row.idle_in_transaction_session_timeout).toBe('1min');
  });
});
