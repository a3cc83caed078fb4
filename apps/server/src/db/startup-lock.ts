import { loadPg, type Database } from './database.js';
import { advisoryLockKey } from './leader-election.js';

/**
 * Serialises start-up work (migrations, seeding the system users and the demo) between server
 * processes that start together on one PostgreSQL database (docs/deployment.md#starting-and-upgrading):
 * the first to come holds a session advisory lock while the others wait for it, then find the
 * work done. Without it, two hosts started at once on a fresh database would both see no users
 * and both insert the admin, and one would fail to start. SQLite has one process: nothing to hold.
 * Resolves to the function that releases the lock (ending the session releases it too, so a
 * process that dies while holding it never blocks the others).
 */
export async function holdStartupLock(database: Database): Promise<() => Promise<void>> {
  if (database.dialect !== 'postgres' || !database.url) return async () => {};
  const client = new (loadPg().Client)({ connectionString: database.url });
  // A lost connection ends the session and so the lock; the start-up work then fails on its own.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const [ns, key] = advisoryLockKey('startup', database.schema);
    await client.query('SELECT pg_advisory_lock($1, $2)', [ns, key]);
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await client.end().catch(() => undefined);
  };
}
