import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { buildDiveTrack, clientSettingsSchema, type Lowering } from '@bathylog/shared';
import { SettingsProvider } from '../../lib/settings';
import type { ExportedEvent } from '../../domain/events/api/events';
import { MilestonesModal } from './milestones-modal';

// uPlot and Leaflet do not run under happy-dom (TOOLCHAIN.md): stand-ins with the same props.
vi.mock('../../components/maps/depth-chart', () => ({
  DepthChart: (props: {
    points: Array<{ ts: number; depth: number }>;
    lines: Array<{ ts: number; highlighted?: boolean }>;
    tooltip: (i: number) => string[];
    onHover: (i: number | null) => void;
    onPointClick: (i: number) => void;
  }) => (
    <div data-testid="chart" data-lines={props.lines.length} data-red={props.lines.filter((l) => l.highlighted).length}>
      {props.points.map((p, i) => (
        <button
          key={i}
          type="button"
          title={props.tooltip(i).join(' | ')}
          onMouseEnter={() => props.onHover(i)}
          onClick={() => props.onPointClick(i)}
        >
          point {i}
        </button>
      ))}
    </div>
  ),
}));
vi.mock('../../components/maps/dive-map', () => ({
  DiveMap: (props: { track: unknown[]; pin: { lat: number; lon: number } | null; height: number }) => (
    <div data-testid="map" data-height={props.height} data-track={props.track.length}>
      {props.pin ? `pin ${props.pin.lat} ${props.pin.lon}` : 'no pin'}
    </div>
  ),
}));

const api = vi.hoisted(() => ({
  lowering: undefined as Lowering | undefined,
  events: undefined as ExportedEvent[] | undefined,
  update: vi.fn(async () => undefined),
}));
vi.mock('./milestones-api', () => ({
  useMilestonesData: () => ({
    lowering: { data: api.lowering, error: null },
    // The server's track route applies the same shared rule (nav.ts) to the same records.
    track: {
      data:
        api.events &&
        buildDiveTrack(
          api.events.map((e) => ({ id: e.id, ts: Date.parse(e.ts), aux_data: e.aux_data })),
          ['vehicleRealtimeNavData'],
        ),
      error: null,
    },
    events: { data: api.events, error: null },
  }),
  updateLoweringMilestones: api.update,
}));

// The dive metrics of the saved milestones, as the server answers them.
vi.mock('../../domain/lowerings/metrics-api', () => ({
  useLoweringMetrics: () => ({
    isPending: false,
    isError: false,
    error: null,
    data: {
      durations: [{ stage: 'Deployment', seconds: 859.276 }],
      max_depth: 2011.5,
      mean_depth: 1173.8,
      depth_readings: 3,
      bottom_mean_depth: 2011.5,
      bottom_depth_readings: 1,
      bottom_distance: null,
      events_total: 4,
      events_by_category: { SAMPLE: 1, ASNAP: 1, VEHICLE: 1, FREE_FORM: 1 },
      events_by_author: { pilot: 4 },
      samples_total: 1,
      samples_by_value: { SAMPLE: 1 },
      framegrabs_total: 0,
      framegrabs_by_camera: {},
    },
  }),
}));

const settings = clientSettingsSchema.parse({});

const lowering: Lowering = {
  id: '6410e4e06594c9977675e47a',
  lowering_id: 'S0492',
  start_ts: '2023-03-14T22:15:39.479Z',
  stop_ts: '2023-03-15T08:32:32.654Z',
  lowering_location: 'Kane FZ',
  lowering_tags: [],
  lowering_hidden: false,
  lowering_additional_meta: {
    lowering_description: 'dive',
    milestones: { lowering_descending: '2023-03-14T22:29:58.755Z', lowering_aborted: null },
    stats: { max_depth: 100, bounding_box: [] },
  },
};

function nav(lat: number, lon: number, depth: number) {
  return {
    data_source: 'vehicleRealtimeNavData',
    data_array: [
      { data_name: 'latitude', data_value: String(lat) },
      { data_name: 'longitude', data_value: String(lon) },
      { data_name: 'depth', data_value: String(depth) },
    ],
  };
}

function event(id: string, ts: string, value: string, aux: ExportedEvent['aux_data']): ExportedEvent {
  return { id, ts, event_author: 'pilot', event_value: value, event_options: [], event_free_text: '', aux_data: aux };
}

const events: ExportedEvent[] = [
  event('e1', '2023-03-14T22:20:00.000Z', 'ASNAP', [nav(23.55, -45.14, 10)]),
  event('e2', '2023-03-14T23:00:00.000Z', 'FREE_FORM', [nav(0, 0, 1500)]),
  { ...event('e3', '2023-03-15T01:00:00.000Z', 'VEHICLE', [nav(23.56, -45.13, 2011.5)]) },
  event('e4', '2023-03-15T02:00:00.000Z', 'SAMPLE', []),
];
events[2]!.event_options = [{ event_option_name: 'milestone', event_option_value: 'On bottom' }];

beforeEach(() => {
  api.lowering = lowering;
  api.events = events;
  api.update.mockClear();
});
afterEach(cleanup);

function renderModal(onSaved = vi.fn(), onHide = vi.fn()) {
  render(
    <SettingsProvider settings={settings}>
      <MilestonesModal loweringId={lowering.id} show onHide={onHide} onSaved={onSaved} />
    </SettingsProvider>,
  );
  return { onSaved, onHide };
}

const valueOf = (label: string) =>
  screen.getByRole('button', { name: label }).parentElement!.querySelector('.milestone-value')!.textContent;

describe('MilestonesModal', () => {
  it('shows the dive metrics of the saved milestones', () => {
    renderModal();
    const table = within(screen.getByTestId('milestones-metrics')).getByRole('table');
    const row = (name: RegExp) => within(table).getByRole('row', { name });
    expect(row(/^Duration: Deployment/).textContent).toBe('Duration: Deployment14 minutes');
    // Each depth names its source and extent, the distance its method.
    expect(row(/^Max depth/).textContent).toBe('Max depth (navigation)2011.5 m');
    expect(row(/^Mean depth, whole dive/).textContent).toBe('Mean depth, whole dive (navigation)1173.8 m');
    expect(row(/^Mean depth on bottom/).textContent).toBe('Mean depth on bottom (navigation)2011.5 m');
    expect(row(/^Distance on bottom/).textContent).toBe(
      'Distance on bottom (filtered track: 120 s median, 15 m steps)—',
    );
    expect(row(/^Samples/).textContent).toBe('Samples1');
  });

  it('shows Loading... until the lowering and its events are there', () => {
    api.events = undefined;
    renderModal();
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(screen.queryByTestId('chart')).toBeNull();
  });

  it('draws the track without zero positions and every depth, with the title users know', () => {
    renderModal();
    expect(screen.getByRole('dialog', { name: 'S0492 - Milestones / Stats' })).toBeTruthy();
    expect(screen.getByTestId('map').dataset.track).toBe('2');
    expect(screen.getByTestId('map').dataset.height).toBe('400');
    expect(within(screen.getByTestId('chart')).getAllByRole('button')).toHaveLength(3);
    // Off Deck, Descending and On Deck are set: three grey lines.
    expect(screen.getByTestId('chart').dataset.lines).toBe('3');
    expect(valueOf('Off Deck')).toBe('2023-03-14T22:15:39.479Z');
    expect(valueOf('On Bottom')).toBe('');
  });

  it('moves the pin with the chart cursor (not to a zero position) and shows the tooltip lines', () => {
    renderModal();
    const points = within(screen.getByTestId('chart')).getAllByRole('button');
    fireEvent.mouseEnter(points[2]!);
    expect(screen.getByTestId('map').textContent).toBe('pin 23.56 -45.13');
    fireEvent.mouseEnter(points[1]!);
    expect(screen.getByTestId('map').textContent).toBe('pin 23.56 -45.13');
    expect(points[2]!.title).toBe('EVENT: VEHICLE | Milestone: On bottom | 2023-03-15T01:00:00.000Z');
  });

  it('sets a milestone from a chart click, then Update saves it', async () => {
    const { onSaved, onHide } = renderModal();
    const update = screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement;
    expect(update.disabled).toBe(true);
    const onBottom = screen.getByRole('button', { name: 'On Bottom' });
    fireEvent.click(onBottom);
    expect(onBottom.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('chart').dataset.red).toBe('0');
    const points = within(screen.getByTestId('chart')).getAllByRole('button');
    expect(points[1]!.title).toContain('Click to set On Bottom.');
    fireEvent.click(points[1]!);
    expect(onBottom.getAttribute('aria-pressed')).toBe('false');
    expect(valueOf('On Bottom')).toBe('2023-03-14T23:00:00.000Z');
    expect(update.disabled).toBe(false);
    fireEvent.click(update);
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(onHide).toHaveBeenCalled();
    expect(api.update).toHaveBeenCalledWith(lowering.id, {
      start_ts: lowering.start_ts,
      stop_ts: lowering.stop_ts,
      lowering_additional_meta: {
        lowering_description: 'dive',
        milestones: {
          lowering_descending: '2023-03-14T22:29:58.755Z',
          lowering_on_bottom: '2023-03-14T23:00:00.000Z',
          lowering_off_bottom: null,
          lowering_on_surface: null,
          lowering_aborted: null,
        },
        stats: { max_depth: 100, bounding_box: [] },
      },
    });
  });

  it('a click with no milestone selected changes nothing; a second label click deselects', () => {
    renderModal();
    const aborted = screen.getByRole('button', { name: 'Aborted' });
    fireEvent.click(aborted);
    fireEvent.click(aborted);
    expect(aborted.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(within(screen.getByTestId('chart')).getAllByRole('button')[1]!);
    expect(valueOf('Aborted')).toBe('');
    expect((screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('calculates max depth and the bounding box from the nav data', () => {
    renderModal();
    fireEvent.click(screen.getByRole('button', { name: 'Calculate max depth from the nav data' }));
    expect(screen.getByTestId('max-depth').textContent).toBe('2011.5');
    fireEvent.click(screen.getByRole('button', { name: 'Calculate bounding box from the nav data' }));
    expect(screen.getByTestId('bounding-box').textContent).toBe('23.56, -45.13, 23.55, -45.14');
    expect((screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Tweak! validates with the words users know and Done stages without saving', () => {
    renderModal();
    fireEvent.click(screen.getByRole('button', { name: 'Tweak!' }));
    const form = screen.getByRole('form', { name: 'Tweak milestones and stats' });
    // The label reads "Off Deck (UTC)", its required mark after it, not inside.
    expect(within(form).getByText('Off Deck (UTC)').tagName).toBe('LABEL');
    // Typing fires `input`, which onChange follows on React and on Preact's compat layer alike.
    fireEvent.input(within(form).getByRole('textbox', { name: 'North' }), { target: { value: '75' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Done' }));
    expect(within(form).getByText('Must be a number between +/- 60')).toBeTruthy();
    expect(within(form).getAllByText('Required')).toHaveLength(3);
    fireEvent.input(within(form).getByRole('textbox', { name: 'North' }), { target: { value: '' } });
    fireEvent.input(within(form).getByRole('textbox', { name: 'Aborted (UTC)' }), {
      target: { value: '2023-03-15 01:02:03.456' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('form', { name: 'Tweak milestones and stats' })).toBeNull();
    expect(valueOf('Aborted')).toBe('2023-03-15T01:02:03.456Z');
    expect(api.update).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Update' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
