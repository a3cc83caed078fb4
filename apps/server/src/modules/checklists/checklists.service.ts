import {
  checklistEventValue,
  checklistMessages,
  checklistPhaseLabels,
  checklistPhases,
  checklistRunSatisfied,
  checklistSystemActor,
  customVarNames,
  newObjectId,
  type Checklist,
  type ChecklistCondition,
  type ChecklistItem,
  type ChecklistItemInput,
  type ChecklistRun,
  type ChecklistRunItem,
  type CreateChecklist,
  type CustomVar,
  type TickChecklistItem,
  type UpdateChecklist,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { EventAccess } from '../access/event-access.js';
import { recordChange } from '../audit/audit.js';
import { CustomVarsService } from '../custom-vars/custom-vars.service.js';
import { EventsService } from '../events/events.service.js';
import { LoweringsService } from '../lowerings/lowerings.service.js';
import {
  ChecklistsRepository,
  runDefinitionOf,
  type ChecklistRecord,
  type RunRecord,
  type StoredItemState,
} from './checklists.repository.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The event value of a checklist's completion event (docs/checklists.md#events-logged). */

export function toWireChecklist(c: ChecklistRecord): Checklist {
  return {
    id: c.id,
    name: c.name,
    phase: c.phase,
    items: c.items,
    order: c.order,
    created_at: iso(c.created_at)!,
    updated_at: iso(c.updated_at)!,
  };
}

/** The live value of every condition asked about, by its JSON text. */
export type ConditionValues = Map<string, boolean>;
const conditionKey = (c: ChecklistCondition) => JSON.stringify(c);

/** Items get an id from their position when the definition gives none (`item-3`), unique within it. */
function withIds(items: readonly ChecklistItemInput[]): ChecklistItem[] {
  const taken = new Set(items.flatMap((i) => (i.id ? [i.id] : [])));
  let n = 0;
  return items.map((item) => {
    let id = item.id;
    while (!id) {
      n++;
      const candidate = `item-${n}`;
      if (!taken.has(candidate)) id = candidate;
    }
    taken.add(id);
    return {
      id,
      label: item.label,
      kind: item.kind,
      ...(item.kind === 'auto' && item.condition ? { condition: item.condition } : {}),
    };
  });
}

const blank: StoredItemState = { state: 'open', by: null, by_id: null, at: null, reason: null };

/**
 * Checklists (docs/checklists.md): admins define them; every lowering runs each definition once
 * (started on first read, or by POST), its items ticked by event loggers and up (a device key with
 * those rights too) and its automatic items evaluated live on the server. A run completes when
 * every item is done or skipped (an automatic item counts as done while its condition holds); the
 * completion logs a CHECKLIST event through the normal event writer. Every change is pushed on
 * the `checklists` channel as `{ lowering_id, run }`.
 */
export class ChecklistsService {
  private readonly lowerings: LoweringsService;
  private readonly events: EventsService;

  constructor(private readonly ctx: AppContext) {
    this.lowerings = new LoweringsService(ctx);
    this.events = new EventsService(ctx);
  }

  private get repo() {
    return new ChecklistsRepository(this.ctx.database.db);
  }

  // ---- definitions -------------------------------------------------------------------------

  async list(): Promise<Checklist[]> {
    return (await this.repo.list()).map(toWireChecklist);
  }

  async get(id: string): Promise<Checklist> {
    const found = await this.repo.findById(id);
    if (!found) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    return toWireChecklist(found);
  }

  async create(caller: AuthContext, body: CreateChecklist): Promise<Checklist> {
    const now = Date.now();
    const record: ChecklistRecord = {
      id: newObjectId(),
      name: body.name,
      phase: body.phase,
      items: withIds(body.items),
      order: body.order ?? 0,
      created_at: now,
      updated_at: now,
    };
    await this.ctx.database.db.transaction().execute(async (trx) => {
      await new ChecklistsRepository(trx).insert(record);
      await recordChange(trx, caller, {
        action: 'create',
        record_type: 'checklist',
        record_id: record.id,
        new_value: toWireChecklist(record),
      });
    });
    return toWireChecklist(record);
  }

  async update(caller: AuthContext, id: string, body: UpdateChecklist): Promise<void> {
    const changed = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new ChecklistsRepository(trx);
      const stored = await repo.findById(id);
      if (!stored) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
      const merged: ChecklistRecord = {
        ...stored,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.phase !== undefined ? { phase: body.phase } : {}),
        ...(body.items !== undefined ? { items: withIds(body.items) } : {}),
        ...(body.order !== undefined ? { order: body.order } : {}),
        updated_at: Date.now(),
      };
      await repo.replace(merged);
      await repo.refreshOpenRuns(id, runDefinitionOf(merged));
      await recordChange(trx, caller, {
        action: 'update',
        record_type: 'checklist',
        record_id: id,
        old_value: toWireChecklist(stored),
        new_value: toWireChecklist(merged),
      });
      return merged;
    });
    await this.publishOpenRunsOf(changed.id);
  }

  /** Deletes the definition and its open runs; completed runs stay, as history. */
  async remove(caller: AuthContext, id: string): Promise<void> {
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new ChecklistsRepository(trx);
      const stored = await repo.findById(id);
      if (!stored) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
      await repo.delete(id);
      await repo.deleteOpenRuns(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'checklist',
        record_id: id,
        old_value: toWireChecklist(stored),
      });
    });
  }

  // ---- runs --------------------------------------------------------------------------------

  /**
   * The runs of a lowering, one per definition: a definition without a run gets one now (reading
   * starts them), unless `start` is false (only the runs it has). Completed runs of deleted
   * definitions are listed too. In phase order, then the definitions' order.
   */
  async runsOf(
    caller: AuthContext,
    loweringId: string,
    opts: { start: boolean } = { start: true },
  ): Promise<ChecklistRun[]> {
    await this.lowerings.assertOpenable(caller, loweringId, 'retrieve');
    const repo = this.repo;
    const definitions = await repo.list();
    let runs = await repo.runsOfLowering(loweringId);
    const missing = definitions.filter((d) => !runs.some((r) => r.checklist_id === d.id));
    if (opts.start && missing.length > 0) {
      for (const d of missing) {
        await repo.insertRunIfMissing({
          id: newObjectId(),
          checklist_id: d.id,
          lowering_id: loweringId,
          definition: runDefinitionOf(d),
          created_at: Date.now(),
        });
      }
      runs = await repo.runsOfLowering(loweringId);
    }
    const rank = new Map(definitions.map((d, i) => [d.id, i]));
    runs.sort(
      (a, b) =>
        checklistPhases.indexOf(a.definition.phase) - checklistPhases.indexOf(b.definition.phase) ||
        (rank.get(a.checklist_id) ?? Infinity) - (rank.get(b.checklist_id) ?? Infinity) ||
        a.created_at - b.created_at,
    );
    const values = await this.evaluate(runs);
    return runs.map((r) => toWireRun(r, values));
  }

  /** Starts the run of one checklist for a lowering; `created` false when it had one already. */
  async start(
    caller: AuthContext,
    loweringId: string,
    checklistId: string,
  ): Promise<{ run: ChecklistRun; created: boolean }> {
    await this.lowerings.assertOpenable(caller, loweringId, 'retrieve');
    const repo = this.repo;
    const definition = await repo.findById(checklistId);
    if (!definition) throw new AppError('BAD_REQUEST', `No checklist found for id: ${checklistId}`);
    const created = await repo.insertRunIfMissing({
      id: newObjectId(),
      checklist_id: checklistId,
      lowering_id: loweringId,
      definition: runDefinitionOf(definition),
      created_at: Date.now(),
    });
    const run = (await repo.runsOfLowering(loweringId)).find((r) => r.checklist_id === checklistId)!;
    const wire = toWireRun(run, await this.evaluate([run]));
    if (created) this.ctx.bus.publish('checklists', { lowering_id: loweringId, run: wire });
    return { run: wire, created };
  }

  /**
   * Ticks (done), unticks (open) or skips (with a reason) one item. When that leaves every item
   * done or skipped, the run completes and its event is logged, authored by the caller.
   */
  async tick(
    caller: AuthContext,
    loweringId: string,
    runId: string,
    itemId: string,
    body: TickChecklistItem,
  ): Promise<ChecklistRun> {
    const reason = body.reason?.trim() ?? '';
    if (body.state === 'skipped' && reason === '') throw new AppError('BAD_REQUEST', checklistMessages.reasonNeeded);
    await this.lowerings.assertOpenable(caller, loweringId, 'retrieve');
    const repo = this.repo;
    for (let attempt = 0; ; attempt++) {
      const run = await repo.findRun(runId);
      if (!run || run.lowering_id !== loweringId) throw new AppError('NOT_FOUND', `No record found for id: ${runId}`);
      const item = run.definition.items.find((i) => i.id === itemId);
      if (!item) throw new AppError('NOT_FOUND', `No item ${itemId} in this checklist`);
      if (run.completed_at !== null) throw new AppError('CONFLICT', checklistMessages.completed);
      const values = await this.evaluate([run]);
      // An automatic item is confirmed by hand only while its condition holds (a run of automatic items only completes so).
      if (
        item.kind === 'auto' &&
        body.state === 'done' &&
        !(item.condition && values.get(conditionKey(item.condition)))
      ) {
        throw new AppError('BAD_REQUEST', checklistMessages.autoNotTicked);
      }
      const now = Date.now();
      const before = run.item_states[itemId] ?? blank;
      const after: StoredItemState =
        body.state === 'open'
          ? blank
          : {
              state: body.state,
              by: caller.user.username,
              by_id: caller.user.id,
              at: now,
              reason: body.state === 'skipped' ? reason : null,
            };
      const states = { ...run.item_states, [itemId]: after };
      const written = await this.write(run, states, values, { username: caller.user.username, id: caller.user.id });
      if (!written) {
        if (attempt < 5) continue;
        throw new AppError('CONFLICT', 'The checklist changed meanwhile; please try again.');
      }
      await recordChange(this.ctx.database.db, caller, {
        action: 'update',
        record_type: 'checklist_run',
        record_id: run.id,
        old_value: { item: itemId, ...publicState(before) },
        new_value: { item: itemId, ...publicState(after) },
      });
      return written;
    }
  }

  /**
   * Stores new item states; when the run is then satisfied, completes it (automatic items that
   * hold become done by `system`), logs the completion event as `completer`, and publishes it.
   * Null when the run changed since it was read.
   */
  private async write(
    run: RunRecord,
    states: Record<string, StoredItemState>,
    values: ConditionValues,
    completer: { username: string; id: string } | null,
  ): Promise<ChecklistRun | null> {
    const repo = this.repo;
    const draft: RunRecord = { ...run, item_states: states };
    const satisfied = completer !== null && checklistRunSatisfied(toWireRun(draft, values).items);
    const now = Date.now();
    const finalStates = satisfied ? completeAutoItems(run, states, values, now) : states;
    const completion = satisfied ? { at: now, by: completer.username } : null;
    if (!(await repo.updateRun(run.id, run.item_states_json, finalStates, completion))) return null;
    const stored: RunRecord = {
      ...run,
      item_states: finalStates,
      item_states_json: JSON.stringify(finalStates),
      completed_at: completion?.at ?? null,
      completed_by: completion?.by ?? null,
    };
    if (completion) {
      try {
        await this.logCompletion(stored, completer!);
      } catch (err) {
        // Nothing is complete without its event: the run is open again and the caller told.
        await repo.reopen(run.id, states);
        throw err;
      }
    }
    const wire = toWireRun(stored, values);
    this.ctx.bus.publish('checklists', { lowering_id: run.lowering_id, run: wire });
    return wire;
  }

  private async logCompletion(run: RunRecord, completer: { username: string; id: string }): Promise<void> {
    const { name, phase, items } = run.definition;
    const skipped = items
      .filter((i) => run.item_states[i.id]?.state === 'skipped')
      .map((i) => `${i.label}: ${run.item_states[i.id]!.reason ?? ''}`)
      .join('; ');
    // The server writes the event for the completer (as the built-in ASNAP does): author and creator are theirs.
    const writer = {
      user: { id: completer.id, username: completer.username },
      scopes: ['admin'],
      isAdmin: true,
      key: null,
    } as unknown as AuthContext;
    await this.events.create(
      writer,
      {
        event_value: checklistEventValue,
        event_author: completer.username,
        event_free_text: `${checklistPhaseLabels[phase]} checklist complete: ${name}`,
        event_options: [
          { event_option_name: 'checklist', event_option_value: name },
          { event_option_name: 'phase', event_option_value: phase },
          ...(skipped ? [{ event_option_name: 'skipped', event_option_value: skipped }] : []),
        ],
      },
      EventAccess.everything,
    );
  }

  private async publishOpenRunsOf(checklistId: string): Promise<void> {
    const runs = (await this.repo.openRuns()).filter((r) => r.checklist_id === checklistId);
    const values = await this.evaluate(runs);
    for (const r of runs) this.ctx.bus.publish('checklists', { lowering_id: r.lowering_id, run: toWireRun(r, values) });
  }

  // ---- live evaluation ---------------------------------------------------------------------

  /** Evaluates every condition of the open runs given, once each. */
  async evaluate(runs: readonly RunRecord[]): Promise<ConditionValues> {
    const conditions = new Map<string, ChecklistCondition>();
    for (const r of runs) {
      if (r.completed_at !== null) continue;
      for (const i of r.definition.items) if (i.condition) conditions.set(conditionKey(i.condition), i.condition);
    }
    const values: ConditionValues = new Map();
    if (conditions.size === 0) return values;
    let vars: CustomVar[] | null = null;
    const readVars = async () => {
      if (vars) return vars;
      try {
        vars = await new CustomVarsService(this.ctx).list();
      } catch {
        vars = [];
      }
      return vars;
    };
    const now = Date.now();
    for (const [key, c] of conditions) {
      if (c.type === 'custom_var') {
        values.set(
          key,
          (await readVars()).some((v) => v.custom_var_name === c.name && v.custom_var_value === c.equals),
        );
      } else if (c.type === 'free_disk') {
        const free = (await readVars()).find((v) => v.custom_var_name === customVarNames.freeSpaceInBytes);
        const bytes = free ? Number(free.custom_var_value) : NaN;
        values.set(key, Number.isFinite(bytes) && bytes >= c.min_bytes);
      } else {
        values.set(key, await this.repo.hasAuxSince(c.data_source, now - c.max_age_seconds * 1000));
      }
    }
    return values;
  }

  /**
   * One pass of the monitor (jobs/checklist-monitor.ts): the open runs whose automatic items
   * changed since `seen` are pushed, and a run that is now satisfied completes, authored by the
   * last person who ticked it. Returns what each open run's automatic items now hold.
   */
  async reevaluate(seen: ReadonlyMap<string, string>): Promise<Map<string, string>> {
    const runs = await this.repo.openRuns();
    const values = await this.evaluate(runs);
    const next = new Map<string, string>();
    for (const run of runs) {
      const wire = toWireRun(run, values);
      const signature = wire.items.map((i) => (i.ok === undefined ? '' : i.ok ? '1' : '0')).join('');
      next.set(run.id, signature);
      if (checklistRunSatisfied(wire.items)) {
        const last = lastTicker(run);
        if (last) {
          await this.write(run, run.item_states, values, last);
          continue;
        }
      }
      if (seen.get(run.id) !== signature)
        this.ctx.bus.publish('checklists', { lowering_id: run.lowering_id, run: wire });
    }
    return next;
  }
}

function publicState(s: StoredItemState) {
  return { state: s.state, by: s.by, at: iso(s.at), reason: s.reason };
}

/** The person whose tick came last (a run with no tick at all does not complete by itself). */
function lastTicker(run: RunRecord): { username: string; id: string } | null {
  let best: StoredItemState | null = null;
  for (const s of Object.values(run.item_states)) {
    if (s.at !== null && s.by && s.by_id && (!best || s.at > (best.at ?? 0))) best = s;
  }
  return best ? { username: best.by!, id: best.by_id! } : null;
}

function completeAutoItems(
  run: RunRecord,
  states: Record<string, StoredItemState>,
  values: ConditionValues,
  now: number,
): Record<string, StoredItemState> {
  const out = { ...states };
  for (const item of run.definition.items) {
    const s = out[item.id] ?? blank;
    if (item.kind === 'auto' && s.state === 'open' && item.condition && values.get(conditionKey(item.condition))) {
      out[item.id] = { state: 'done', by: checklistSystemActor, by_id: null, at: now, reason: null };
    }
  }
  return out;
}

/** The wire run: automatic items of an open run carry their live `ok`. */
export function toWireRun(run: RunRecord, values: ConditionValues): ChecklistRun {
  const open = run.completed_at === null;
  const items: ChecklistRunItem[] = run.definition.items.map((item) => {
    const s = run.item_states[item.id] ?? blank;
    return {
      id: item.id,
      label: item.label,
      kind: item.kind,
      ...(item.condition ? { condition: item.condition } : {}),
      state: s.state,
      ...(item.kind === 'auto' && open && item.condition
        ? { ok: values.get(conditionKey(item.condition)) ?? false }
        : {}),
      by: s.by,
      at: iso(s.at),
      reason: s.reason,
    };
  });
  return {
    id: run.id,
    checklist_id: run.checklist_id,
    lowering_id: run.lowering_id,
    name: run.definition.name,
    phase: run.definition.phase,
    state: open ? 'open' : 'complete',
    completed_at: iso(run.completed_at),
    completed_by: run.completed_by,
    items,
  };
}
