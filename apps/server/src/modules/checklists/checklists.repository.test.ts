import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAux, insertEvents } from '../../../test/table-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { ChecklistsRepository } from './checklists.repository.js';

/**
 * The "aux data fresh" condition (docs/checklists.md#conditions) asks whether an event of the last
 * `max_age_seconds` carries aux data from a source. It runs on every aux insert and every few
 * seconds, so it must read the window's events, not every aux record the source ever had.
 */
describe.each(engines)('checklist freshness query on %s', (engine) => {
  let t: TestApp;
  let repo: ChecklistsRepository;
  const now = Date.UTC(2024, 5, 1, 12);

  beforeAll(async () => {
    t = await createTestApp(engine);
    repo = new ChecklistsRepository(t.ctx.database.db);
    // A long history of navigation, an hour old and older; one fresh CTD sample.
    const old = await insertEvents(
      t.ctx.database.db,
      Array.from({ length: 600 }, (_, i) => ({ ts: now - 3600_000 - i * 1000, event_value: 'OLD' })),
    );
    await insertAux(
      t.ctx.database.db,
      old.map((event_id) => ({ event_id, data_source: 'nav', data_array: [{ data_name: 'lat', data_value: 1 }] })),
    );
    const [fresh] = await insertEvents(t.ctx.database.db, [{ ts: now - 10_000, event_value: 'FRESH' }]);
    await insertAux(t.ctx.database.db, [
      { event_id: fresh!, data_source: 'ctd', data_array: [{ data_name: 'temp', data_value: 4 }] },
    ]);
  });
  afterAll(() => t?.close());

  it('tells a fresh source from a stale or unknown one', async () => {
    expect(await repo.hasAuxSince('ctd', now - 60_000)).toBe(true);
    expect(await repo.hasAuxSince('nav', now - 60_000)).toBe(false);
    expect(await repo.hasAuxSince('nav', now - 3600_000)).toBe(true);
    expect(await repo.hasAuxSince('nowhere', now - 86_400_000)).toBe(false);
  });

  it.runIf(engine === 'sqlite')(
    "reads the window's events by the ts index, and each aux record by (event, source)",
    async () => {
      const query = repo.auxSinceQuery('nav', now - 60_000).compile();
      const plan = await t.ctx.database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
      );
      const rows = plan.rows.map((r) => r.detail);
      expect(rows[0]).toMatch(/^SEARCH events USING (COVERING )?INDEX events_ts\w* \(ts>\?\)/);
      expect(rows.join('\n')).toMatch(
        /SEARCH event_aux_data (EXISTS )?USING (COVERING )?INDEX event_aux_data_event_source_idx \(event_id=\? AND data_source=\?\)/,
      );
    },
  );
});
