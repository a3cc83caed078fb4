import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { parseUtcInput, type TimeEdge } from '@bathylog/shared';
import './date-time-popover.css';

const dayMs = 86_400_000;
const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const weekdays = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
const minYear = 1900;
const maxYear = 2200;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD` of a UTC day start. */
const dayText = (day: number) => new Date(day).toISOString().slice(0, 10);
const dayOf = (ms: number) => Math.floor(ms / dayMs) * dayMs;

function addMonths(day: number, n: number) {
  const d = new Date(day);
  const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n + 1, 0)).getUTCDate();
  const t = new Date(target);
  return Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), Math.min(d.getUTCDate(), last));
}

interface Clock {
  h: string;
  m: string;
  s: string;
  /** The value's own milliseconds, kept while the clock is not changed. */
  ms: number;
}

function clockOf(ms: number): Clock {
  const d = new Date(ms);
  return { h: pad(d.getUTCHours()), m: pad(d.getUTCMinutes()), s: pad(d.getUTCSeconds()), ms: d.getUTCMilliseconds() };
}

/**
 * The calendar of a date/time field (docs/screens.md#date-and-time-fields): a month grid in UTC
 * (arrow keys move a day or a week, Page Up/Down a month, Shift+Page Up/Down a year, Home/End the
 * week's ends; Enter picks), a month list and a year box to jump anywhere, hour, minute and second
 * boxes, Now, Cancel and Set. Esc closes and returns to the field's button.
 */
export function DateTimePopover({
  mode,
  edge,
  value,
  near,
  label,
  anchor,
  onPick,
  onClose,
}: {
  mode: 'date' | 'datetime';
  edge: TimeEdge;
  value: string;
  /** Where an empty field's calendar opens (ISO; the record's start or end); today without it. */
  near?: string;
  label: string;
  anchor: RefObject<HTMLElement | null>;
  onPick: (text: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const [initial] = useState(() => {
    const parsed = parseUtcInput(value, edge);
    if (parsed !== null) return { day: dayOf(parsed), clock: clockOf(parsed) };
    // An empty field opens where the record is (a dive of March 2023 is not 40 clicks back from
    // today), at the start or the end of that day as the field's edge asks.
    const nearMs = near ? Date.parse(near) : NaN;
    const start = Number.isNaN(nearMs) ? dayOf(Date.now()) : dayOf(nearMs);
    return { day: start, clock: clockOf(edge === 'end' ? start + dayMs - 1 : start) };
  });
  const [day, setDay] = useState(initial.day);
  const [clock, setClock] = useState<Clock>(initial.clock);
  const [moved, setMoved] = useState(0);
  /** The year box while it holds something that is not a year yet (typing "20" of "2023"). */
  const [yearText, setYearText] = useState<string | null>(null);

  // Opens on the chosen day; after each key move the focus follows the day.
  useEffect(() => {
    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  }, [moved]);

  // A click elsewhere closes it (the field's button toggles it itself).
  useEffect(() => {
    const away = (e: MouseEvent) => {
      const target = e.target as Node;
      if (!box.current?.contains(target) && !anchor.current?.contains(target)) onClose();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [anchor, onClose]);

  const text = (d: number, c: Clock) => {
    if (mode === 'date') return dayText(d);
    const n = (s: string, max: number) => Math.min(max, Math.max(0, Number.parseInt(s, 10) || 0));
    const ms = c.ms ? `.${pad(c.ms, 3)}` : '';
    return `${dayText(d)} ${pad(n(c.h, 23))}:${pad(n(c.m, 59))}:${pad(n(c.s, 59))}${ms}`;
  };
  const pick = (d: number) => onPick(text(d, clock));
  const go = (d: number) => {
    setDay(d);
    setMoved((k) => k + 1);
  };

  const onGridKey = (e: KeyboardEvent<HTMLTableElement>) => {
    const weekday = (new Date(day).getUTCDay() + 6) % 7;
    const moves: Record<string, () => number> = {
      ArrowLeft: () => day - dayMs,
      ArrowRight: () => day + dayMs,
      ArrowUp: () => day - 7 * dayMs,
      ArrowDown: () => day + 7 * dayMs,
      PageUp: () => addMonths(day, e.shiftKey ? -12 : -1),
      PageDown: () => addMonths(day, e.shiftKey ? 12 : 1),
      Home: () => day - weekday * dayMs,
      End: () => day + (6 - weekday) * dayMs,
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      go(move());
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(day);
    }
  };

  const d = new Date(day);
  /** The same day of the month (or the month's last) in another month and year. */
  const jump = (year: number, toMonth: number) => {
    const last = new Date(Date.UTC(year, toMonth + 1, 0)).getUTCDate();
    setDay(Date.UTC(year, toMonth, Math.min(d.getUTCDate(), last)));
  };
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const start = first - lead * dayMs;
  const weeks = Array.from({ length: 6 }, (_, w) => Array.from({ length: 7 }, (_, i) => start + (w * 7 + i) * dayMs));
  const month = d.getUTCMonth();
  const today = dayOf(Date.now());
  const title = `${months[month]} ${d.getUTCFullYear()}`;

  const clockBox = (key: 'h' | 'm' | 's', name: string) => (
    <input
      className="form-control form-control-sm text-center dt-clock"
      inputMode="numeric"
      maxLength={2}
      aria-label={`${name} (UTC)`}
      value={clock[key]}
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setClock((c) => ({ ...c, [key]: e.currentTarget.value.replace(/\D/g, ''), ms: 0 }))}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          pick(day);
        }
      }}
    />
  );

  return (
    <div
      ref={box}
      role="dialog"
      aria-label={label}
      className="dt-popover card shadow-sm p-2"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation(); // a modal around the field stays open
          onClose();
        }
      }}
    >
      <div className="d-flex align-items-center gap-1 mb-1">
        <button
          type="button"
          className="btn btn-sm btn-link"
          aria-label="Previous month"
          onClick={() => go(addMonths(day, -1))}
        >
          <i className="bi bi-chevron-left" aria-hidden="true" />
        </button>
        {/* A jump to any month and year, by mouse or keyboard (the arrows of a select and a
            number box); the grid keeps its name, read out as it changes. */}
        <span id={`${id}-month`} className="visually-hidden" aria-live="polite">
          {title}
        </span>
        <select
          className="form-select form-select-sm dt-month"
          aria-label="Month"
          value={month}
          onChange={(e) => jump(d.getUTCFullYear(), Number(e.currentTarget.value))}
        >
          {months.map((name, i) => (
            <option key={name} value={i}>
              {name}
            </option>
          ))}
        </select>
        <input
          className="form-control form-control-sm dt-year"
          type="number"
          aria-label="Year"
          min={minYear}
          max={maxYear}
          value={yearText ?? d.getUTCFullYear()}
          onChange={(e) => {
            const text = e.currentTarget.value;
            const year = Number.parseInt(text, 10);
            if (/^\d{4}$/.test(text) && year >= minYear && year <= maxYear) {
              setYearText(null);
              jump(year, month);
            } else setYearText(text);
          }}
          onBlur={() => setYearText(null)}
        />
        <button
          type="button"
          className="btn btn-sm btn-link"
          aria-label="Next month"
          onClick={() => go(addMonths(day, 1))}
        >
          <i className="bi bi-chevron-right" aria-hidden="true" />
        </button>
      </div>
      <table ref={grid} role="grid" aria-labelledby={`${id}-month`} className="dt-grid" onKeyDown={onGridKey}>
        <thead>
          <tr>
            {weekdays.map((w) => (
              <th key={w} scope="col" className="small text-secondary fw-normal">
                {w}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((cell) => {
                const c = new Date(cell);
                const selected = cell === day;
                const classes = ['btn', 'btn-sm', 'dt-day'];
                if (selected) classes.push('btn-primary');
                else if (c.getUTCMonth() !== month) classes.push('text-secondary');
                if (cell === today) classes.push('dt-today');
                return (
                  <td key={cell} role="gridcell" aria-selected={selected}>
                    <button
                      type="button"
                      className={classes.join(' ')}
                      tabIndex={selected ? 0 : -1}
                      aria-label={`${c.getUTCDate()} ${months[c.getUTCMonth()]} ${c.getUTCFullYear()}`}
                      aria-current={cell === today ? 'date' : undefined}
                      onClick={() => (mode === 'date' ? pick(cell) : setDay(cell))}
                    >
                      {c.getUTCDate()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {mode === 'datetime' && (
        <div className="d-flex align-items-center gap-1 mt-1 small" role="group" aria-label="Time (UTC)">
          <span className="me-1">Time (UTC)</span>
          {clockBox('h', 'Hours')}:{clockBox('m', 'Minutes')}:{clockBox('s', 'Seconds')}
        </div>
      )}
      <div className="d-flex justify-content-end gap-1 mt-2">
        <button type="button" className="btn btn-sm btn-outline-secondary me-auto" onClick={() => onPick(now(mode))}>
          {mode === 'date' ? 'Today' : 'Now'}
        </button>
        <button type="button" className="btn btn-sm btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-sm btn-primary" onClick={() => pick(day)}>
          Set
        </button>
      </div>
    </div>
  );
}

/** Now (UTC, whole seconds), or today for a date field. */
function now(mode: 'date' | 'datetime') {
  const iso = new Date().toISOString();
  return mode === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}
