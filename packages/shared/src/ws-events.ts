/**
 * Realtime channels (docs/wire.md#channels). Services publish on the channel bus under these names;
 * the websocket layer delivers each to subscribers of `/ws/status/<name>`.
 * Payloads are the wire objects of each channel (docs/wire.md#channels).
 */
export const wsChannels = [
  'newEvents',
  'updateEvents',
  'deleteEvents',
  'newEventAuxData',
  'updateEventAuxData',
  'deleteEventAuxData',
  'newEventTemplates',
  'updateEventTemplates',
  'deleteEventTemplates',
  'updateCustomVars',
  'newCruises',
  'updateCruises',
  'newLowerings',
  'updateLowerings',
  /** A lowering's checklist run changed (docs/checklists.md#live-updates): `{ lowering_id, run }`. */
  'checklists',
  /** Bathylog addition: an event's data completeness changed (docs/completeness.md#websocket). */
  'completeness',
  // A Bathylog channel (docs/wire.md#channels): the Users screen follows other admins' changes.
  'updateUsers',
  'ships',
  /** A Bathylog channel (docs/aux-managers.md#health): a built-in aux-data manager's health changed (admins). */
  'auxManagers',
] as const;

export type WsChannel = (typeof wsChannels)[number];

export const wsPathPrefix = '/ws/status/';

export function wsPath(channel: WsChannel): string {
  return `${wsPathPrefix}${channel}`;
}

/** Events and aux data are published only when this close to now (docs/wire.md#channels). */
export const publishWindowMs = 120_000;

/** Publish when `publish` is not false and the ts lies within the window of now. */
export function shouldPublish(ts: number, publish: boolean | undefined, now = Date.now()): boolean {
  return publish !== false && Math.abs(now - ts) < publishWindowMs;
}

/**
 * A new event (POST events) is live when its sender says so with an explicit `publish: true`, at
 * any time: a console's event sent late from its offline queue, or back-dated, is still live logging.
 * Without `publish` the window of now decides, as in Sealog, so importers that post old events one
 * by one stay quiet; `false` is never published (docs/wire.md#live-or-imported).
 */
export function publishesNewEvent(ts: number, publish: boolean | undefined, now = Date.now()): boolean {
  return publish === true || shouldPublish(ts, publish, now);
}
