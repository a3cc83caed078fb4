/**
 * Bus channels that are not websocket subscription paths. They ride the same bus, so with
 * PostgreSQL they cross processes like the channels of
 * docs/wire.md#channels do.
 */
export const internalChannels = {
  /** Output lines of a running external call (a string per message), for /ws/execute_output listeners. */
  executeOutput: 'bathylog:executeOutput',
  /**
   * Tokens were revoked (`{userId}` or `{keyId}`): open websockets re-check their token at once
   * and close when it no longer holds.
   */
  revoked: 'bathylog:revoked',
  /** A followed ship was added, changed or removed (`{shipId}`): the shore's followers re-read it. */
  shipsChanged: 'bathylog:shipsChanged',
  /** An aux-data manager was added, changed or removed (`{managerId}`): the leader's runner re-reads it. */
  auxManagersChanged: 'bathylog:auxManagersChanged',
  /**
   * A recording was registered, changed or removed (`{recordingId}`): a shore waiting on this
   * ship's change feed reads it again (recordings have no websocket channel of their own).
   */
  recordingsChanged: 'bathylog:recordingsChanged',
} as const;

/** What the internal channels carry. */
export interface InternalPayloads {
  [internalChannels.executeOutput]: string;
  [internalChannels.revoked]: { userId: string } | { keyId: string };
  [internalChannels.shipsChanged]: { shipId: string };
  [internalChannels.auxManagersChanged]: { managerId: string };
  [internalChannels.recordingsChanged]: { recordingId: string };
}
