import type { ChecklistRunMessage } from './schemas/checklists.js';
import type { Ship } from './schemas/sync.js';
import type { AuxManagerHealth } from './schemas/aux-managers.js';
import type { WsChannel } from './ws-events.js';

/**
 * The hapi nes protocol, version 2 (docs/wire.md#websocket), as both ends of Bathylog speak it: the server
 * in apps/server/src/realtime, the browser client in apps/web/src/api/realtime.ts. Existing Sealog
 * scripts send exactly these frames, so the shapes here are the wire contract.
 */
export const nesProtocolVersion = '2';

/** Any truthy number or string; Python scripts use fixed strings such as "websocketTest". */
export type NesId = number | string;

export interface NesAuth {
  headers?: Record<string, string>;
}

export type NesClientFrame =
  | { type: 'hello'; id: NesId; version: string; auth?: NesAuth; subs?: string[] }
  | { type: 'reauth'; id: NesId; auth?: NesAuth }
  | { type: 'request'; id: NesId; method?: string; path: string; headers?: Record<string, string>; payload?: unknown }
  | { type: 'sub'; id: NesId; path: string }
  | { type: 'unsub'; id: NesId; path: string }
  | { type: 'message'; id: NesId; message: unknown }
  | { type: 'ping'; id: NesId };

export interface NesHeartbeat {
  interval: number;
  timeout: number;
}

/** Every error: the Boom body minus statusCode under `payload`, plus the request's type, id and path. */
export interface NesErrorFrame {
  statusCode: number;
  payload: { error: string; message: string };
  type?: string;
  id?: NesId;
  path?: string;
}

export type NesServerFrame =
  | { type: 'hello'; id: NesId; heartbeat: NesHeartbeat | false; socket: string }
  | { type: 'reauth'; id: NesId }
  | { type: 'request'; id: NesId; statusCode: number; payload: unknown }
  | { type: 'sub'; id: NesId; path: string }
  | { type: 'unsub'; id: NesId }
  | { type: 'pub'; path: string; message: unknown }
  | { type: 'update'; message: unknown }
  | { type: 'ping' };

export function isNesErrorFrame(frame: unknown): frame is NesErrorFrame {
  return (
    typeof frame === 'object' &&
    frame !== null &&
    typeof (frame as NesErrorFrame).statusCode === 'number' &&
    (frame as NesErrorFrame).statusCode >= 400
  );
}

/**
 * The nes request that registers a socket for the output of external calls (docs/wire.md#external-calls).
 * The server answers it, then pushes the command's output as `update` frames: first
 * "Executing <command>", then one frame per output line, last the end marker.
 */
export const executeOutputPath = '/ws/execute_output';
/** Route id form of the same request, which Sealog clients may send instead of the path. */
export const executeOutputRouteId = 'execute_output';
export const executeOutputReply = 'connection request received';
export const executeOutputEndPrefix = 'Process exited with code: ';

export function isExecuteOutputEnd(message: unknown): boolean {
  return typeof message === 'string' && message.startsWith(executeOutputEndPrefix);
}

/** One event option as it travels on the wire. */
export interface WsEventOption {
  event_option_name: string;
  event_option_value: string;
}

/** The event object of newEvents / updateEvents / deleteEvents (deleteEvents may add aux_data). */
export interface WsEvent {
  id: string;
  ts: string;
  event_author: string;
  event_value: string;
  event_options: WsEventOption[];
  event_free_text: string;
  aux_data?: unknown[];
}

export interface WsAuxData {
  id: string;
  event_id: string;
  data_source: string;
  data_array: Array<{ data_name: string; data_value: string | number; data_uom?: string }>;
}

export interface WsCustomVar {
  id: string;
  custom_var_name?: string;
  custom_var_value?: string;
}

/** Templates, cruises and lowerings travel as their API objects; clients mostly refetch on them. */
export type WsRecord = { id?: string; _id?: string } & Record<string, unknown>;

/** An event's data completeness changed (docs/completeness.md#websocket). */
export interface WsCompleteness {
  event_id: string;
  /** The event's value, so a warning can say which event it is. */
  event_value: string;
  /** The lowering whose window holds the event, or null. */
  lowering_id: string | null;
  ts: string;
  state: 'complete' | 'pending' | 'incomplete';
  missing: string[];
  stale: string[];
  /** The aux data arrived after the event had been judged incomplete. */
  late?: boolean;
}

/**
 * A user created, changed or deleted (`updateUsers`): only which one and how; the screen
 * rereads the list. Never a password hash, token or any other field.
 */
export interface WsUserChange {
  id: string;
  change: 'create' | 'update' | 'delete';
}

/** Payload type of each channel (docs/wire.md#channels). */
export interface WsPayloads {
  newEvents: WsEvent;
  updateEvents: WsEvent;
  deleteEvents: WsEvent;
  newEventAuxData: WsAuxData;
  updateEventAuxData: WsAuxData;
  deleteEventAuxData: WsAuxData;
  newEventTemplates: WsRecord;
  updateEventTemplates: WsRecord;
  deleteEventTemplates: WsRecord;
  updateCustomVars: WsCustomVar;
  updateUsers: WsUserChange;
  newCruises: WsRecord;
  updateCruises: WsRecord;
  newLowerings: WsRecord;
  updateLowerings: WsRecord;
  checklists: ChecklistRunMessage;
  completeness: WsCompleteness;
  /** A followed ship's entry (GET ships), on every change of its state (admins; docs/ship-to-shore.md). */
  ships: Ship;
  /** A built-in aux-data manager's health, on every change of state or counters (admins; docs/aux-managers.md). */
  auxManagers: AuxManagerHealth;
}

// Compile-time check that every channel has a payload type and no extra ones exist.
type _EveryChannelTyped = [WsChannel] extends [keyof WsPayloads]
  ? [keyof WsPayloads] extends [WsChannel]
    ? true
    : never
  : never;
export const everyChannelTyped: _EveryChannelTyped = true;

/**
 * freeSpacePercentage is the percentage of the data disk that is USED (0-100, a decimal string),
 * although its Sealog name says "free": the footer colours it green below 75, amber below 90 and
 * red otherwise, which only makes sense for a used percentage (docs/realtime.md#free-space).
 */
export const freeSpaceThresholds = { green: 75, amber: 90 } as const;

export type FreeSpaceLevel = 'success' | 'warning' | 'danger';

/** Footer colour of the free-space value from the (used) percentage; unknown → danger. */
export function freeSpaceLevel(percentage: string | number | null | undefined): FreeSpaceLevel {
  const value = typeof percentage === 'number' ? percentage : Number.parseFloat(percentage ?? '');
  if (!Number.isFinite(value)) return 'danger';
  if (value < freeSpaceThresholds.green) return 'success';
  if (value < freeSpaceThresholds.amber) return 'warning';
  return 'danger';
}
