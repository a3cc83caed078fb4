import { z } from 'zod/mini';
import { objectIdSchema } from './common.js';

/**
 * Checklists (docs/checklists.md): an admin defines them per phase of a dive; each lowering runs
 * them, item by item, some ticked by people, some held by a condition on live data.
 */
export const checklistPhases = ['pre_dive', 'pre_recovery', 'post_dive'] as const;
export type ChecklistPhase = (typeof checklistPhases)[number];

/** How each phase is shown (the management table, the run panel, the completion event). */
export const checklistPhaseLabels: Record<ChecklistPhase, string> = {
  pre_dive: 'Pre-dive',
  pre_recovery: 'Pre-recovery',
  post_dive: 'Post-dive',
};

export const checklistItemKinds = ['manual', 'auto'] as const;
export type ChecklistItemKind = (typeof checklistItemKinds)[number];

export const checklistConditionTypes = ['custom_var', 'aux_fresh', 'free_disk'] as const;
export type ChecklistConditionType = (typeof checklistConditionTypes)[number];

/**
 * The condition of an automatic item: typed data, evaluated by the server (docs/checklists.md#conditions).
 * - custom_var: the custom var `name` has the value `equals` (asnapStatus = On).
 * - aux_fresh: the newest aux record of `data_source` belongs to an event younger than `max_age_seconds`.
 * - free_disk: the data disk has at least `min_bytes` free (the freeSpaceInBytes var).
 */
export const checklistConditionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('custom_var'),
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    equals: z.string().check(z.maxLength(200)),
  }),
  z.strictObject({
    type: z.literal('aux_fresh'),
    data_source: z.string().check(z.minLength(1), z.maxLength(100)),
    max_age_seconds: z.number().check(z.int(), z.minimum(1), z.maximum(31_536_000)),
  }),
  z.strictObject({
    type: z.literal('free_disk'),
    min_bytes: z.number().check(z.int(), z.minimum(0)),
  }),
]);
export type ChecklistCondition = z.infer<typeof checklistConditionSchema>;

/** An item id: short, stable within its checklist (ticks name it in the URL). */
const itemIdSchema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,40}$/, { message: 'must be 1-40 letters, digits, _ or -' }));

/** One item of a definition. An automatic item carries its condition; a manual one none. */
export const checklistItemSchema = z.strictObject({
  id: itemIdSchema,
  label: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  kind: z.enum(checklistItemKinds),
  condition: z.optional(checklistConditionSchema),
});
export type ChecklistItem = z.infer<typeof checklistItemSchema>;

/** An item as a definition is written: the id may be left out (the server makes one). */
export const checklistItemInputSchema = z.strictObject({
  id: z.optional(itemIdSchema),
  label: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  kind: z.enum(checklistItemKinds),
  condition: z.optional(checklistConditionSchema),
});
export type ChecklistItemInput = z.infer<typeof checklistItemInputSchema>;

/** The refusals of a definition's items, shared by the API and the form. */
export const checklistMessages = {
  autoNeedsCondition: 'An automatic item needs a condition.',
  manualHasCondition: 'A manual item has no condition.',
  duplicateItemId: 'Item ids must be unique within a checklist.',
  reasonNeeded: 'A reason is needed to skip an item.',
  autoNotTicked: 'An automatic item can be ticked only while its condition holds.',
  completed: 'This checklist is complete; its items can no longer change.',
  noItems: 'A checklist needs at least one item.',
} as const;

/** Why these items cannot be stored, or null when they can. */
export function checklistItemsProblem(items: readonly ChecklistItemInput[]): string | null {
  if (items.length === 0) return checklistMessages.noItems;
  for (const item of items) {
    if (item.kind === 'auto' && !item.condition) return checklistMessages.autoNeedsCondition;
    if (item.kind === 'manual' && item.condition) return checklistMessages.manualHasCondition;
  }
  const ids = items.flatMap((i) => (i.id ? [i.id] : []));
  if (new Set(ids).size !== ids.length) return checklistMessages.duplicateItemId;
  return null;
}

const itemsInput = z.array(checklistItemInputSchema).check(
  z.maxLength(100),
  z.superRefine((items, ctx) => {
    const problem = checklistItemsProblem(items);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: items });
  }),
);

export const createChecklistSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  phase: z.enum(checklistPhases),
  items: itemsInput,
  order: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(10_000))),
});
export type CreateChecklist = z.infer<typeof createChecklistSchema>;

export const updateChecklistSchema = z
  .strictObject({
    name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    phase: z.optional(z.enum(checklistPhases)),
    items: z.optional(itemsInput),
    order: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(10_000))),
  })
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' }));
export type UpdateChecklist = z.infer<typeof updateChecklistSchema>;

/** A definition as the API returns it. */
export const checklistSchema = z.object({
  id: z.string(),
  name: z.string(),
  phase: z.enum(checklistPhases),
  items: z.array(checklistItemSchema),
  order: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Checklist = z.infer<typeof checklistSchema>;

export const checklistItemStates = ['open', 'done', 'skipped'] as const;
export type ChecklistItemState = (typeof checklistItemStates)[number];

/** Who ticked an automatic item that held when its run completed. */
export const checklistSystemActor = 'system';

/** One item of a run (docs/checklists.md#runs). `ok`: an automatic item's condition, now. */
export const checklistRunItemSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(checklistItemKinds),
  condition: z.optional(checklistConditionSchema),
  state: z.enum(checklistItemStates),
  ok: z.optional(z.boolean()),
  by: z.nullable(z.string()),
  at: z.nullable(z.string()),
  reason: z.nullable(z.string()),
});
export type ChecklistRunItem = z.infer<typeof checklistRunItemSchema>;

/** A checklist run for one lowering. */
export const checklistRunSchema = z.object({
  id: z.string(),
  checklist_id: z.string(),
  lowering_id: z.string(),
  name: z.string(),
  phase: z.enum(checklistPhases),
  state: z.enum(['open', 'complete']),
  completed_at: z.nullable(z.string()),
  completed_by: z.nullable(z.string()),
  items: z.array(checklistRunItemSchema),
});
export type ChecklistRun = z.infer<typeof checklistRunSchema>;

export const startChecklistRunSchema = z.strictObject({ checklist_id: objectIdSchema });

/**
 * `GET lowerings/{id}/checklists?start=false`: list the runs the lowering has and start none (the
 * lowering card, which must not start runs on an old dive just by showing it).
 */
export const checklistRunsQuerySchema = z.object({ start: z.optional(z.enum(['true', 'false'])) });

export const checklistRunParamsSchema = z.strictObject({ id: objectIdSchema, run_id: objectIdSchema });
export const checklistItemParamsSchema = z.strictObject({
  id: objectIdSchema,
  run_id: objectIdSchema,
  item_id: itemIdSchema,
});

/** A tick: done, back to open, or skipped with a reason. */
export const tickChecklistItemSchema = z.strictObject({
  state: z.enum(checklistItemStates),
  reason: z.optional(z.string().check(z.maxLength(500))),
});
export type TickChecklistItem = z.infer<typeof tickChecklistItemSchema>;

/**
 * The event_value of the event the server logs when a checklist run completes (docs/checklists.md#events-logged).
 * Bookkeeping of what people did in the app: it needs no aux data (docs/completeness.md#states).
 */
export const checklistEventValue = 'CHECKLIST';

/** The checklists channel's message: the run as it now stands. */
export interface ChecklistRunMessage {
  lowering_id: string;
  run: ChecklistRun;
}

/** Whether an item is out of the way: skipped, a manual item done, an automatic one done or holding. */
export function checklistItemSatisfied(i: ChecklistRunItem): boolean {
  return i.state === 'skipped' || (i.kind === 'manual' ? i.state === 'done' : i.state === 'done' || i.ok === true);
}

/**
 * Whether a run was run: complete, or some item ticked or skipped by someone. A run only started
 * (reading a lowering's checklists starts them) holds nothing anyone did, and its automatic items
 * say how the data stand now, not then: it is not progress (docs/checklists.md#the-lowering-card).
 */
export function checklistRunWasRun(run: { state: string; items: ReadonlyArray<{ state: string }> }): boolean {
  return run.state === 'complete' || run.items.some((i) => i.state !== 'open');
}

/** Whether a run may complete: every item satisfied (checklistItemSatisfied). */
export function checklistRunSatisfied(items: readonly ChecklistRunItem[]): boolean {
  return items.every(checklistItemSatisfied);
}

/** A condition in words (the run panel and the management table). */
export function describeCondition(condition: ChecklistCondition | undefined): string {
  if (!condition) return '';
  switch (condition.type) {
    case 'custom_var':
      return `${condition.name} is ${condition.equals}`;
    case 'aux_fresh':
      return `${condition.data_source} data newer than ${condition.max_age_seconds} s`;
    case 'free_disk':
      return `at least ${formatBytes(condition.min_bytes)} free on disk`;
  }
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : Number(value.toFixed(1))} ${units[unit]}`;
}
