import { useEffect, useRef, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './depth-chart.css';

/** One point of the profile: epoch ms and depth in metres (positive down). */
export interface DepthChartPoint {
  ts: number;
  depth: number;
}

/** A vertical line across the chart, e.g. a milestone. */
export interface DepthChartLine {
  ts: number;
  /** Drawn red (the milestone being edited) instead of grey. */
  highlighted?: boolean;
}

export interface DepthChartProps {
  /** The profile in time order (nav.ts `buildDiveTrack(...).depths` fits). */
  points: readonly DepthChartPoint[];
  /** Height in pixels (200 in the milestones editor). The width follows the container. */
  height?: number;
  /** Vertical lines: grey #CFCFCF, 2 px; highlighted ones red #FF0000. */
  lines?: readonly DepthChartLine[];
  /** Tooltip lines for the point at `index`; nothing shows when it returns an empty list. */
  tooltip?: (index: number) => readonly string[];
  /** The point under the cursor (or chosen with the arrow keys); null when the cursor leaves. */
  onHover?: (index: number | null) => void;
  /** A click on the chart (not a drag), or Enter, on the point at `index`. */
  onPointClick?: (index: number) => void;
  /** Accessible name of the chart. */
  label?: string;
}

export const depthChartColors = {
  series: '#2A9FD6',
  background: '#262626',
  line: '#CFCFCF',
  highlightedLine: '#FF0000',
  axis: '#c8c9c8',
  grid: '#3a3a3a',
} as const;

/** UTC tick labels: dates at day steps, HH:mm below a day. */
function timeTicks(_u: uPlot, splits: number[], _axisIdx: number, _space: number, incr: number): string[] {
  const day = 86_400_000;
  return splits.map((ms) => {
    const iso = new Date(ms).toISOString();
    if (incr >= day) return iso.slice(5, 10);
    if (incr >= 60_000) return iso.slice(11, 16);
    return iso.slice(11, 19);
  });
}

/**
 * The depth profile of a dive (uPlot, canvas): depth against UTC time with 0 at the top, on the
 * Sealog dark chart colours. Drag across to zoom in on a time span, double-click to zoom out.
 * The cursor reports the point under it (onHover) and a click picks it (onPointClick); with the
 * keyboard, the arrow keys move the cursor (Shift: 10 points), Home/End jump, Enter picks.
 */
export function DepthChart({
  points,
  height = 200,
  lines = [],
  tooltip,
  onHover,
  onPointClick,
  label = 'Depth profile',
}: DepthChartProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef({ lines, tooltip, onHover, onPointClick, points });
  const keyIndex = useRef<number | null>(null);
  const shown = useRef<readonly DepthChartPoint[] | null>(null);

  useEffect(() => {
    latest.current = { lines, tooltip, onHover, onPointClick, points };
    plot.current?.redraw(false, false);
  }, [lines, tooltip, onHover, onPointClick, points]);

  useEffect(() => {
    const el = wrapper.current;
    if (!el) return;
    const showTip = (u: uPlot, idx: number | null | undefined) => {
      const box = tip.current;
      if (!box) return;
      const text = idx === null || idx === undefined ? [] : (latest.current.tooltip?.(idx) ?? []);
      if (text.length === 0 || idx === null || idx === undefined) {
        box.hidden = true;
        return;
      }
      box.replaceChildren(
        ...text.map((t) => {
          const line = document.createElement('div');
          line.textContent = t;
          return line;
        }),
      );
      box.hidden = false;
      const x = u.valToPos(u.data[0][idx]!, 'x');
      const y = u.valToPos(u.data[1]?.[idx] ?? 0, 'y');
      const left = u.over.offsetLeft + x;
      const flip = x > u.over.clientWidth / 2;
      box.style.left = `${flip ? left - box.offsetWidth - 12 : left + 12}px`;
      box.style.top = `${Math.max(0, u.over.offsetTop + y - box.offsetHeight / 2)}px`;
    };

    const opts: uPlot.Options = {
      width: Math.max(100, el.clientWidth),
      height,
      ms: 1,
      legend: { show: false },
      cursor: {
        drag: { x: true, y: false, setScale: true },
        points: { size: 8, fill: depthChartColors.series },
        y: false,
      },
      select: { show: true, left: 0, top: 0, width: 0, height: 0 },
      scales: {
        x: { time: true },
        y: { dir: -1, range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 10] },
      },
      axes: [
        {
          stroke: depthChartColors.axis,
          grid: { stroke: depthChartColors.grid, width: 1 },
          ticks: { stroke: depthChartColors.grid },
          values: timeTicks,
        },
        {
          stroke: depthChartColors.axis,
          grid: { stroke: depthChartColors.grid, width: 1 },
          ticks: { stroke: depthChartColors.grid },
          label: 'Depth (m)',
          labelSize: 20,
          size: 56,
        },
      ],
      series: [{}, { stroke: depthChartColors.series, width: 2, points: { show: false } }],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            const { top, height: h } = u.bbox;
            const [min, max] = [u.scales.x?.min ?? -Infinity, u.scales.x?.max ?? Infinity];
            ctx.save();
            ctx.lineWidth = 2 * uPlot.pxRatio;
            // The edited line last, so it is drawn over a grey one at the same time.
            const ordered = [...latest.current.lines].sort((a, b) => Number(!!a.highlighted) - Number(!!b.highlighted));
            for (const l of ordered) {
              if (l.ts < min || l.ts > max) continue;
              const x = Math.round(u.valToPos(l.ts, 'x', true));
              ctx.strokeStyle = l.highlighted ? depthChartColors.highlightedLine : depthChartColors.line;
              ctx.beginPath();
              ctx.moveTo(x, top);
              ctx.lineTo(x, top + h);
              ctx.stroke();
            }
            ctx.restore();
          },
        ],
        setCursor: [
          (u) => {
            const idx = u.cursor.idx;
            showTip(u, idx);
            latest.current.onHover?.(idx ?? null);
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [latest.current.points.map((p) => p.ts), latest.current.points.map((p) => p.depth)];
    const u = new uPlot(opts, data, el);
    plot.current = u;
    shown.current = latest.current.points;
    // For scripts and tests: how many points the chart holds.
    el.setAttribute('data-points', String(data[0].length));

    // A click is a mouse-down and -up at (nearly) the same place; anything longer is a zoom drag.
    let down: { x: number; y: number } | null = null;
    const onDown = (e: MouseEvent) => {
      down = { x: e.clientX, y: e.clientY };
    };
    const onUp = (e: MouseEvent) => {
      if (!down) return;
      const moved = Math.abs(e.clientX - down.x) + Math.abs(e.clientY - down.y);
      down = null;
      const idx = u.cursor.idx;
      if (moved < 4 && idx !== null && idx !== undefined) {
        // The tooltip may say "Click to set …": hide it until the cursor moves again.
        if (tip.current) tip.current.hidden = true;
        latest.current.onPointClick?.(idx);
      }
    };
    const onLeave = () => {
      if (tip.current) tip.current.hidden = true;
    };
    u.over.addEventListener('mousedown', onDown);
    u.over.addEventListener('mouseup', onUp);
    u.over.addEventListener('mouseleave', onLeave);
    const resize = new ResizeObserver(() => {
      const width = Math.max(100, el.clientWidth);
      if (width !== u.width) u.setSize({ width, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('mousedown', onDown);
      u.over.removeEventListener('mouseup', onUp);
      u.over.removeEventListener('mouseleave', onLeave);
      u.destroy();
      plot.current = null;
    };
  }, [height]);

  // New data without a new chart (keeps the zoom only when the data is the same length).
  useEffect(() => {
    const u = plot.current;
    if (!u || shown.current === points) return;
    shown.current = points;
    u.setData([points.map((p) => p.ts), points.map((p) => p.depth)]);
    wrapper.current?.setAttribute('data-points', String(points.length));
    keyIndex.current = null;
  }, [points]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const u = plot.current;
    const n = points.length;
    if (!u || n === 0) return;
    const current = keyIndex.current ?? u.cursor.idx ?? -1;
    let next: number | null = null;
    const step = e.shiftKey ? 10 : 1;
    if (e.key === 'ArrowRight') next = Math.min(n - 1, current + step);
    else if (e.key === 'ArrowLeft') next = Math.max(0, current < 0 ? 0 : current - step);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    else if ((e.key === 'Enter' || e.key === ' ') && current >= 0) {
      e.preventDefault();
      if (tip.current) tip.current.hidden = true;
      onPointClick?.(current);
      return;
    }
    if (next === null) return;
    e.preventDefault();
    keyIndex.current = next;
    const p = points[next]!;
    const min = u.scales.x?.min ?? p.ts;
    const max = u.scales.x?.max ?? p.ts;
    if (p.ts < min || p.ts > max) u.setScale('x', { min: u.data[0][0]!, max: u.data[0][n - 1]! });
    u.setCursor({ left: u.valToPos(p.ts, 'x'), top: u.valToPos(p.depth, 'y') });
  };

  return (
    <div className="depth-chart" style={{ background: depthChartColors.background }}>
      <div
        ref={wrapper}
        className="depth-chart-plot"
        role="img"
        aria-label={label}
        tabIndex={0}
        onKeyDown={onKeyDown}
      />
      <div ref={tip} className="depth-chart-tooltip" hidden aria-hidden="true" />
    </div>
  );
}
