import type { Kysely, Transaction } from 'kysely';
import type { ChecklistItem, ChecklistItemState, ChecklistPhase } from '@bathylog/shared';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';

/** A definition with its items decoded. */
export interface ChecklistRecord {
  id: string;
  name: string;
  phase: ChecklistPhase;
  items: ChecklistItem[];
  order: number;
  created_at: number;
  updated_at: number;
}

/** What a run keeps of its definition (its own copy: a completed run never changes). */
export interface RunDefinition {
  name: string;
  phase: ChecklistPhase;
  items: ChecklistItem[];
}

/** One item's state in a run; `by_id`: the user or device key id behind `by`. */
export interface StoredItemState {
  state: ChecklistItemState;
  by: string | null;
  by_id: string | null;
  at: number | null;
  reason: string | null;
}

export interface RunRecord {
  id: string;
  checklist_id: string;
  lowering_id: string;
  definition: RunDefinition;
  item_states: Record<string, StoredItemState>;
  /** The stored JSON of `item_states`, for the compare-and-set update. */
  item_states_json: string;
  created_at: number;
  completed_at: number | null;
  completed_by: string | null;
}

type Db = Kysely<DB> | Transaction<DB>;

function definitionFromRow(row: DB['checklists']): ChecklistRecord {
  return {
    id: row.id,
    name: row.name,
    phase: row.phase as ChecklistPhase,
    items: parseJson<ChecklistItem[]>(row.items, []),
    order: Number(row.sort_order),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

function runFromRow(row: DB['checklist_runs']): RunRecord {
  return {
    id: row.id,
    checklist_id: row.checklist_id,
    lowering_id: row.lowering_id,
    definition: parseJson<RunDefinition>(row.definition, { name: '', phase: 'pre_dive', items: [] }),
    item_states: parseJson<Record<string, StoredItemState>>(row.item_states, {}),
    item_states_json: row.item_states,
    created_at: Number(row.created_at),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    completed_by: row.completed_by,
  };
}

export function runDefinitionOf(checklist: ChecklistRecord): RunDefinition {
  return { name: checklist.name, phase: checklist.phase, items: checklist.items };
}

export class ChecklistsRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<ChecklistRecord[]> {
    const rows = await this.db.selectFrom('checklists').selectAll().orderBy('sort_order').orderBy('id').execute();
    return rows.map(definitionFromRow);
  }

  async findById(id: string): Promise<ChecklistRecord | undefined> {
    const row = await this.db.selectFrom('checklists').selectAll().where('id', '=', id).executeTakeFirst();
    return row && definitionFromRow(row);
  }

  async insert(c: ChecklistRecord): Promise<void> {
    await this.db
      .insertInto('checklists')
      .values({
        id: c.id,
        name: c.name,
        phase: c.phase,
        items: JSON.stringify(c.items),
        sort_order: c.order,
        created_at: c.created_at,
        updated_at: c.updated_at,
      })
      .execute();
  }

  async replace(c: ChecklistRecord): Promise<void> {
    await this.db
      .updateTable('checklists')
      .set({
        name: c.name,
        phase: c.phase,
        items: JSON.stringify(c.items),
        sort_order: c.order,
        updated_at: c.updated_at,
      })
      .where('id', '=', c.id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('checklists').where('id', '=', id).execute();
  }

  /** Open runs follow an edited definition; completed ones keep the copy they completed with. */
  async refreshOpenRuns(checklistId: string, definition: RunDefinition): Promise<void> {
    await this.db
      .updateTable('checklist_runs')
      .set({ definition: JSON.stringify(definition) })
      .where('checklist_id', '=', checklistId)
      .where('completed_at', 'is', null)
      .execute();
  }

  async deleteOpenRuns(checklistId: string): Promise<void> {
    await this.db
      .deleteFrom('checklist_runs')
      .where('checklist_id', '=', checklistId)
      .where('completed_at', 'is', null)
      .execute();
  }

  async runsOfLowering(loweringId: string): Promise<RunRecord[]> {
    const rows = await this.db.selectFrom('checklist_runs').selectAll().where('lowering_id', '=', loweringId).execute();
    return rows.map(runFromRow);
  }

  async openRuns(): Promise<RunRecord[]> {
    const rows = await this.db.selectFrom('checklist_runs').selectAll().where('completed_at', 'is', null).execute();
    return rows.map(runFromRow);
  }

  async findRun(id: string): Promise<RunRecord | undefined> {
    const row = await this.db.selectFrom('checklist_runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && runFromRow(row);
  }

  /** Starts a run unless the lowering has one of this checklist already (then nothing happens). */
  async insertRunIfMissing(run: {
    id: string;
    checklist_id: string;
    lowering_id: string;
    definition: RunDefinition;
    created_at: number;
  }): Promise<boolean> {
    const result = await this.db
      .insertInto('checklist_runs')
      .values({
        id: run.id,
        checklist_id: run.checklist_id,
        lowering_id: run.lowering_id,
        definition: JSON.stringify(run.definition),
        item_states: '{}',
        created_at: run.created_at,
        completed_at: null,
        completed_by: null,
      })
      .onConflict((oc) => oc.columns(['lowering_id', 'checklist_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Writes new item states (and the completion, when given) only if the run still holds what was
   * read (`expected`) and is open: two ticks at once on either engine never lose one. True when written.
   */
  async updateRun(
    id: string,
    expected: string,
    states: Record<string, StoredItemState>,
    completion: { at: number; by: string } | null,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('checklist_runs')
      .set({
        item_states: JSON.stringify(states),
        ...(completion ? { completed_at: completion.at, completed_by: completion.by } : {}),
      })
      .where('id', '=', id)
      .where('item_states', '=', expected)
      .where('completed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Undoes a completion whose event could not be logged (the run is open again, its ticks kept). */
  async reopen(id: string, states: Record<string, StoredItemState>): Promise<void> {
    await this.db
      .updateTable('checklist_runs')
      .set({ completed_at: null, completed_by: null, item_states: JSON.stringify(states) })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Whether an event at or after `since` carries aux data from `dataSource`. Reads only the events
   * of that window (the events' ts index) and looks each one's aux record up by (event, source),
   * so its cost follows the events in the window, never the source's whole history (the monitor
   * asks on every aux insert and every few seconds).
   */
  async hasAuxSince(dataSource: string, since: number): Promise<boolean> {
    return (await this.auxSinceQuery(dataSource, since).executeTakeFirst()) !== undefined;
  }

  /** The query of `hasAuxSince` (its plan is pinned by checklists.repository.test.ts). */
  auxSinceQuery(dataSource: string, since: number) {
    return this.db
      .selectFrom('events')
      .select('events.id')
      .where('events.ts', '>=', since)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('event_aux_data')
            .select('event_aux_data.id')
            .whereRef('event_aux_data.event_id', '=', 'events.id')
            .where('event_aux_data.data_source', '=', dataSource),
        ),
      )
      .limit(1);
  }
}
