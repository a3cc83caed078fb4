import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import './depth-chart.css';
import { depthLabel, nearestIndex, splits, timeLabel, timeStep, valueStep } from './scales';

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

/** Room around the plot for the axes: the depth axis and its title on the left, times below. */
const pad = { top: 10, right: 10, bottom: 40, left: 76 };
const font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
/** Ticks reach this far out of the plot; their labels start past them. */
const tickSize = 6;

/** What the canvas draws: the plot box, the time window shown and the depth at its bottom. */
interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
  min: number;
  max: number;
  depth: number;
}

/**
 * The depth profile of a dive, drawn on a canvas: depth against UTC time with 0 at the top, on the
 * Sealog dark chart colours. Drag across to zoom in on a time span, double-click to zoom out.
 * The cursor reports the point under it (onHover) and a click picks it (onPointClick); with the
 * keyboard, the arrow keys move the cursor (Shift: 10 points), Home/End jump, Enter picks.
 * Drawn by hand rather than with a chart library: this is the client's one chart, and uPlot was
 * 22 kB gzip of the app (docs/lean-client.md#what-is-in-it).
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
  const canvas = useRef<HTMLCanvasElement>(null);
  const over = useRef<HTMLDivElement>(null);
  const select = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const latest = useRef({ lines, tooltip, onHover, onPointClick, points, height });
  latest.current = { lines, tooltip, onHover, onPointClick, points, height };
  /** The time window shown (null: the whole dive), the point under the cursor, the last drawing. */
  const view = useRef<{ min: number; max: number } | null>(null);
  const cursor = useRef<number | null>(null);
  const frame = useRef<Frame | null>(null);

  const draw = useCallback(() => {
    const el = wrapper.current;
    const cv = canvas.current;
    const ov = over.current;
    if (!el || !cv || !ov) return;
    const { points: data, lines: marks, height: h } = latest.current;
    const w = Math.max(100, el.clientWidth);
    const ratio = window.devicePixelRatio || 1;
    if (cv.width !== Math.round(w * ratio) || cv.height !== Math.round(h * ratio)) {
      cv.width = Math.round(w * ratio);
      cv.height = Math.round(h * ratio);
      cv.style.width = `${w}px`;
      cv.style.height = `${h}px`;
    }
    const box = { left: pad.left, top: pad.top, width: w - pad.left - pad.right, height: h - pad.top - pad.bottom };
    Object.assign(ov.style, {
      left: `${box.left}px`,
      top: `${box.top}px`,
      width: `${box.width}px`,
      height: `${box.height}px`,
    });
    const first = data[0]?.ts ?? 0;
    const last = data[data.length - 1]?.ts ?? first;
    let { min, max } = view.current ?? { min: first, max: last };
    if (max <= min) [min, max] = [min - 60_000, max + 60_000];
    let deepest = 0;
    for (const p of data) if (p.ts >= min && p.ts <= max && p.depth > deepest) deepest = p.depth;
    const depth = deepest > 0 ? deepest * 1.05 : 10;
    const f: Frame = { ...box, min, max, depth };
    frame.current = f;
    const x = (ts: number) => f.left + ((ts - min) / (max - min)) * f.width;
    const y = (d: number) => f.top + (d / depth) * f.height;

    const ctx = cv.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.font = font;
    ctx.lineWidth = 1;

    // Grid, ticks and labels: times below the plot, depths to its left.
    const tStep = timeStep(max - min, f.width);
    const dStep = valueStep(depth, f.height);
    ctx.strokeStyle = depthChartColors.grid;
    ctx.beginPath();
    const times = splits(min, max, tStep);
    const depths = splits(0, depth, dStep);
    for (const t of times) {
      const px = Math.round(x(t)) + 0.5;
      ctx.moveTo(px, f.top);
      ctx.lineTo(px, f.top + f.height + tickSize);
    }
    for (const d of depths) {
      const py = Math.round(y(d)) + 0.5;
      ctx.moveTo(f.left - tickSize, py);
      ctx.lineTo(f.left + f.width, py);
    }
    ctx.stroke();
    ctx.fillStyle = depthChartColors.axis;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of times) ctx.fillText(timeLabel(t, tStep), x(t), f.top + f.height + tickSize + 4);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const d of depths) ctx.fillText(depthLabel(d), f.left - tickSize - 4, y(d));
    ctx.save();
    ctx.translate(10, f.top + f.height / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText('Depth (m)', 0, 0);
    ctx.restore();

    ctx.save();
    ctx.beginPath();
    ctx.rect(f.left, f.top, f.width, f.height);
    ctx.clip();
    // The profile, with the points just outside the window so the line reaches the edges.
    ctx.strokeStyle = depthChartColors.series;
    ctx.lineWidth = 2;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    let from = data.length
      ? nearestIndex(
          data.map((p) => p.ts),
          min,
        )
      : 0;
    if (from > 0) from--;
    for (let i = from, started = false; i < data.length; i++) {
      const p = data[i]!;
      if (started) ctx.lineTo(x(p.ts), y(p.depth));
      else ctx.moveTo(x(p.ts), y(p.depth));
      started = true;
      if (p.ts > max) break;
    }
    ctx.stroke();
    // Milestones: the edited one last, so it is drawn over a grey one at the same time.
    const ordered = [...marks].sort((a, b) => Number(!!a.highlighted) - Number(!!b.highlighted));
    for (const l of ordered) {
      if (l.ts < min || l.ts > max) continue;
      const px = Math.round(x(l.ts));
      ctx.strokeStyle = l.highlighted ? depthChartColors.highlightedLine : depthChartColors.line;
      ctx.beginPath();
      ctx.moveTo(px, f.top);
      ctx.lineTo(px, f.top + f.height);
      ctx.stroke();
    }
    const at = cursor.current === null ? undefined : data[cursor.current];
    if (at && at.ts >= min && at.ts <= max) {
      ctx.fillStyle = depthChartColors.series;
      ctx.beginPath();
      ctx.arc(x(at.ts), y(at.depth), 4, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.restore();
  }, []);

  /** Puts the cursor on a point (null: none), with its tooltip, and tells onHover. */
  const setCursor = useCallback(
    (idx: number | null) => {
      cursor.current = idx;
      draw();
      const box = tip.current;
      const f = frame.current;
      const { points: data, tooltip: tipText, onHover: hover } = latest.current;
      const p = idx === null ? undefined : data[idx];
      const text = idx === null ? [] : (tipText?.(idx) ?? []);
      if (box) {
        if (!p || !f || !wrapper.current || text.length === 0) box.hidden = true;
        else {
          box.replaceChildren(
            ...text.map((t) => {
              const line = document.createElement('div');
              line.textContent = t;
              return line;
            }),
          );
          box.hidden = false;
          const px = ((p.ts - f.min) / (f.max - f.min)) * f.width;
          const py = (p.depth / f.depth) * f.height;
          const left = wrapper.current.offsetLeft + f.left + px;
          const flip = px > f.width / 2;
          box.style.left = `${flip ? left - box.offsetWidth - 12 : left + 12}px`;
          box.style.top = `${Math.max(0, wrapper.current.offsetTop + f.top + py - box.offsetHeight / 2)}px`;
        }
      }
      hover?.(idx);
    },
    [draw],
  );

  // Redrawn when its inputs change; a new profile of another length shows whole again.
  const shown = useRef(points);
  useEffect(() => {
    if (shown.current.length !== points.length) {
      view.current = null;
      cursor.current = null;
    }
    shown.current = points;
    draw();
  }, [points, lines, height, draw]);

  useEffect(() => {
    const el = wrapper.current;
    const ov = over.current;
    if (!el || !ov) return;
    const resize = new ResizeObserver(() => draw());
    resize.observe(el);

    /** The point nearest in time to a mouse event's position over the plot. */
    const pointAt = (e: MouseEvent) => {
      const f = frame.current;
      const data = latest.current.points;
      if (!f || data.length === 0) return null;
      const ts = f.min + ((e.clientX - ov.getBoundingClientRect().left) / f.width) * (f.max - f.min);
      return nearestIndex(
        data.map((p) => p.ts),
        ts,
      );
    };
    // A click is a mouse-down and -up at (nearly) the same place; a drag across zooms in.
    let down: { x: number; y: number; left: number } | null = null;
    const onMove = (e: MouseEvent) => {
      setCursor(pointAt(e));
      const sel = select.current;
      if (!down || !sel) return;
      const at = Math.min(Math.max(e.clientX - ov.getBoundingClientRect().left, 0), ov.clientWidth);
      sel.hidden = false;
      sel.style.top = `${ov.offsetTop}px`;
      sel.style.height = `${ov.offsetHeight}px`;
      sel.style.left = `${ov.offsetLeft + Math.min(at, down.left)}px`;
      sel.style.width = `${Math.abs(at - down.left)}px`;
    };
    const onDown = (e: MouseEvent) => {
      if (e.button !== 0) return;
      down = { x: e.clientX, y: e.clientY, left: e.clientX - ov.getBoundingClientRect().left };
      document.addEventListener('mouseup', onUp);
    };
    const onUp = (e: MouseEvent) => {
      document.removeEventListener('mouseup', onUp);
      if (!down) return;
      const start = down;
      down = null;
      if (select.current) select.current.hidden = true;
      const f = frame.current;
      const dx = Math.abs(e.clientX - start.x);
      if (dx >= 4 && f) {
        const at = Math.min(Math.max(e.clientX - ov.getBoundingClientRect().left, 0), f.width);
        const [a, b] = [Math.min(at, start.left), Math.max(at, start.left)];
        const span = f.max - f.min;
        view.current = { min: f.min + (a / f.width) * span, max: f.min + (b / f.width) * span };
        setCursor(pointAt(e));
        return;
      }
      const idx = dx + Math.abs(e.clientY - start.y) < 4 ? pointAt(e) : null;
      if (idx !== null) {
        // The tooltip may say "Click to set …": hide it until the cursor moves again.
        if (tip.current) tip.current.hidden = true;
        latest.current.onPointClick?.(idx);
      }
    };
    const onLeave = () => {
      if (!down) setCursor(null);
    };
    const onDouble = () => {
      view.current = null;
      draw();
    };
    ov.addEventListener('mousemove', onMove);
    ov.addEventListener('mousedown', onDown);
    ov.addEventListener('mouseleave', onLeave);
    ov.addEventListener('dblclick', onDouble);
    return () => {
      resize.disconnect();
      document.removeEventListener('mouseup', onUp);
      ov.removeEventListener('mousemove', onMove);
      ov.removeEventListener('mousedown', onDown);
      ov.removeEventListener('mouseleave', onLeave);
      ov.removeEventListener('dblclick', onDouble);
    };
  }, [draw, setCursor]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const n = points.length;
    if (n === 0) return;
    const current = cursor.current ?? -1;
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
    const p = points[next]!;
    const f = frame.current;
    if (f && (p.ts < f.min || p.ts > f.max)) view.current = null;
    setCursor(next);
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
        data-points={points.length}
      >
        <canvas ref={canvas} />
        <div ref={over} className="depth-chart-over" />
        <div ref={select} className="depth-chart-select" hidden />
      </div>
      <div ref={tip} className="depth-chart-tooltip" hidden aria-hidden="true" />
    </div>
  );
}
