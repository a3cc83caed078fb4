import { describe, expect, it } from 'vitest';
import { ArchiveView, subtractWindows, type ArchiveRecord } from './archive.js';
import { EventAccess } from './event-access.js';

/** The archive rule on its own: inheritance, the three states, and the event windows they give. */

const record = (
  over: Partial<ArchiveRecord> & Pick<ArchiveRecord, 'kind' | 'id' | 'start' | 'stop'>,
): ArchiveRecord => ({
  hidden: false,
  isPublic: null,
  embargoUntil: null,
  accessList: [],
  copied: false,
  ...over,
});

describe('archive rule', () => {
  it('subtracts windows with inclusive bounds', () => {
    expect(
      subtractWindows(
        [{ lo: 0, hi: 100 }],
        [
          { lo: 10, hi: 20 },
          { lo: 90, hi: 200 },
        ],
      ),
    ).toEqual([
      { lo: 0, hi: 9 },
      { lo: 21, hi: 89 },
    ]);
    expect(subtractWindows([{ lo: 0, hi: 10 }], [{ lo: 0, hi: 10 }])).toEqual([]);
  });

  it('a lowering inherits its cruise unless it sets its own; embargoes open at their time', () => {
    const records = [
      record({ kind: 'cruise', id: 'pub', start: 0, stop: 1000, isPublic: true }),
      record({ kind: 'cruise', id: 'priv', start: 2000, stop: 3000, isPublic: false }),
      record({ kind: 'lowering', id: 'inherits', start: 100, stop: 200 }),
      record({ kind: 'lowering', id: 'embargoed', start: 300, stop: 400, isPublic: true, embargoUntil: 50 }),
      record({ kind: 'lowering', id: 'closed', start: 500, stop: 600, isPublic: false }),
      record({ kind: 'lowering', id: 'published', start: 2100, stop: 2200, isPublic: true }),
      record({ kind: 'lowering', id: 'hidden', start: 700, stop: 800, hidden: true }),
      record({ kind: 'lowering', id: 'orphan', start: 5000, stop: 5100 }),
    ];
    const before = ArchiveView.of(records, 49);
    const states = (view: ArchiveView) =>
      ['inherits', 'embargoed', 'closed', 'published', 'hidden', 'orphan'].map((id) => view.state('lowering', id));
    expect(states(before)).toEqual(['open', 'stub', 'closed', 'open', 'closed', 'closed']);
    expect(before.setting('lowering', 'inherits')).toEqual({ isPublic: true, embargoUntil: null });
    expect(before.listed('cruise')).toEqual(['pub']);
    expect(states(ArchiveView.of(records, 50))[1]).toBe('open');

    const events = EventAccess.of(before.hiddenWindows());
    const seen = (ts: number) => events.maySee(ts);
    // Public cruise outside dives; an inheriting dive; an embargoed, a closed and a hidden dive.
    expect([50, 150, 350, 550, 750].map(seen)).toEqual([true, true, false, false, false]);
    // A dive published inside a private cruise is seen; the rest of that cruise is not.
    expect([2150, 2500].map(seen)).toEqual([true, false]);
    // Outside every record: never.
    expect([-1, 1500, 5050, 9000].map(seen)).toEqual([false, false, false, false]);
  });

  it('a hidden cruise closes the dives that inherit from it; access lists open records to their members', () => {
    const records = [
      record({ kind: 'cruise', id: 'hidden', start: 0, stop: 1000, isPublic: true, hidden: true, accessList: ['m'] }),
      record({ kind: 'lowering', id: 'later', start: 100, stop: 200 }),
      record({ kind: 'lowering', id: 'own', start: 300, stop: 400, isPublic: true }),
      record({ kind: 'lowering', id: 'listed', start: 500, stop: 600, isPublic: false, accessList: ['n'] }),
    ];
    const ids = ['hidden', 'later', 'own', 'listed'];
    const states = (member: string | null) =>
      ids.map((id) => ArchiveView.of(records, 0, member).state(id === 'hidden' ? 'cruise' : 'lowering', id));
    expect(states(null)).toEqual(['closed', 'closed', 'open', 'closed']);
    // The cruise's member opens it and the dive that inherits from it, not another's listed dive.
    expect(states('m')).toEqual(['open', 'open', 'open', 'closed']);
    expect(states('n')).toEqual(['closed', 'closed', 'open', 'open']);
    const seen = (member: string | null) => {
      const events = EventAccess.of(ArchiveView.of(records, 0, member).hiddenWindows());
      return [150, 350, 550].map((ts) => events.maySee(ts));
    };
    expect(seen(null)).toEqual([false, true, false]);
    expect(seen('m')).toEqual([true, true, false]);
  });

  it('a copy from a ship with an access list is closed to everyone, its members and the public included', () => {
    const records = [
      record({ kind: 'cruise', id: 'ship', start: 0, stop: 1000, isPublic: true, accessList: ['m'], copied: true }),
      record({ kind: 'lowering', id: 'dive', start: 100, stop: 200 }),
      record({ kind: 'cruise', id: 'open-copy', start: 2000, stop: 3000, isPublic: true, copied: true }),
    ];
    for (const member of [null, 'm']) {
      const view = ArchiveView.of(records, 0, member);
      expect([view.state('cruise', 'ship'), view.state('lowering', 'dive'), view.state('cruise', 'open-copy')]).toEqual(
        ['closed', 'closed', 'open'],
      );
    }
  });

  it("on a fleet shore, another ship's public dive does not publish a private cruise's time (it is dark there)", () => {
    const records = [
      // Ship A's private cruise and ship B's public cruise and dive, at sea the same week.
      record({ kind: 'cruise', id: 'a', start: 0, stop: 1000, isPublic: false, copied: true, origin: 'A' }),
      record({ kind: 'cruise', id: 'b', start: 0, stop: 1000, isPublic: true, copied: true, origin: 'B' }),
      record({ kind: 'lowering', id: 'b-dive', start: 100, stop: 200, copied: true, origin: 'B' }),
      // This server's own public dive inside its own private cruise still opens.
      record({ kind: 'cruise', id: 'own', start: 2000, stop: 3000, isPublic: false }),
      record({ kind: 'lowering', id: 'own-dive', start: 2100, stop: 2200, isPublic: true }),
    ];
    const events = EventAccess.of(ArchiveView.of(records, 0).hiddenWindows());
    expect([150, 500, 2150, 2500].map((ts) => events.maySee(ts))).toEqual([false, false, true, false]);
  });
});
