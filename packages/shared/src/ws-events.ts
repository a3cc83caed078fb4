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
  'ships',
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
