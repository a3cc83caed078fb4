import { describe, expect, it } from 'vitest';
import { checklistRunWasRun, type ChecklistRun } from './checklists.js';

const item = (over: Partial<ChecklistRun['items'][number]>): ChecklistRun['items'][number] => ({
  id: 'x',
  label: 'X',
  kind: 'manual',
  state: 'open',
  by: null,
  at: null,
  reason: null,
  ...over,
});

describe('checklistRunWasRun', () => {
  it('a run only started is not progress, even while its automatic items hold today', () => {
    const started = {
      state: 'open' as const,
      items: [item({ kind: 'auto', ok: true }), item({ id: 'y' }), item({ id: 'z' })],
    };
    expect(checklistRunWasRun(started)).toBe(false);
  });

  it('a run someone ticked or skipped an item of, or a complete one, was run', () => {
    expect(checklistRunWasRun({ state: 'open', items: [item({ state: 'done', by: 'ann' }), item({ id: 'y' })] })).toBe(
      true,
    );
    expect(checklistRunWasRun({ state: 'open', items: [item({ state: 'skipped', reason: 'no cam' })] })).toBe(true);
    expect(checklistRunWasRun({ state: 'complete', items: [] })).toBe(true);
  });
});
