/**
 * The contract between the aux-data managers (modules/aux-managers) and the protocol adapters that feed them
 * (InfluxDB, gpsd, NMEA 0183, OpenRVDAS, MQTT, camera frame grabs). An adapter knows its protocol and nothing of
 * events, records or the database; a manager turns what an adapter answers into an aux record by the vessel's
 * Sealog-style lookup rules (`aux_record_lookup`). docs/aux-managers.md describes both sides.
 */

/** How a value reached the record: read live, from a live source's recent buffer, or by a backfill. */
export type Provenance = 'realtime' | 'buffered' | 'backfilled';

/**
 * One reading: the values a source held at `ts` (ms since the epoch, UTC), keyed as the lookup rules name them.
 * InfluxDB keys are `<measurement>.<field>`; gpsd `TPV.lat`, `ATT.heading`; NMEA `GGA.latitude`, `HDT.heading`;
 * OpenRVDAS `<data_id>.<field>` (its cached data server: `<field>`); MQTT `<topic>.<json path>`.
 */
export interface Reading {
  ts: number;
  values: Record<string, number | string | boolean | null>;
}

/** What a manager asks a source for one event. */
export interface ReadingRequest {
  /** The event's time (ms). */
  at: number;
  /** The oldest reading that may answer, as an age before `at` (Sealog's 20 s default). */
  maxAgeMs: number;
  /** The keys the rules read; a source may answer only these. */
  keys: readonly string[];
  /** Keys whose value is interpolated between the readings around `at` (positions), where the source can. */
  interpolate?: readonly string[];
  /** Cancels a slow peer: the manager times out without delaying other managers or any request. */
  signal: AbortSignal;
  /** Files (frame grabs) are written under this folder, named as Sealog names them. */
  imagesDir: string;
  /**
   * The event the reading is for (frame-grab file names carry no secrets, only time and camera); `''` for a
   * manager's health probe, which has no event: a camera then checks it can grab, and writes no file.
   */
  eventId: string;
}

/** The answer: a reading, or why there is none (each reason is a counter on the manager's health). */
export type ReadingResult =
  | { kind: 'reading'; reading: Reading; provenance: Provenance }
  | { kind: 'no_data' } // nothing in the window
  | { kind: 'stale'; newestTs?: number } // the newest value is older than maxAgeMs
  | { kind: 'not_backfillable' }; // a live-only source asked about a time it cannot have been current for

export interface SourceHealth {
  /** Connected (or last query answered) and values arriving. */
  connected: boolean;
  lastReadingTs?: number;
  lastSuccessAt?: number;
  /** A message for operators: never a password, token or URL credential. */
  lastError?: string;
  lastErrorAt?: number;
}

export interface AuxSource {
  /** True when the source can answer for any past time (InfluxDB, recorded video); false for live-only ones. */
  readonly historical: boolean;
  /** Opens connections / sockets / subscriptions. Must not throw for a peer that is down: health says so. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The reading at or before `at`; for a live source, from its short time-indexed buffer. */
  readingAt(request: ReadingRequest): Promise<ReadingResult>;
  /**
   * Optional, for backfill: readings for many event times in one go (the same answers as `readingAt` per time),
   * where the source can read a span at once (InfluxDB).
   */
  readingsAt?(times: readonly number[], request: Omit<ReadingRequest, 'at' | 'eventId'>): Promise<ReadingResult[]>;
  health(): SourceHealth;
}
