import { EventEmitter } from 'node:events';
import type { WsPayloads } from '@bathylog/shared';
import type { InternalPayloads } from './internal-channels.js';

/**
 * The channel bus: services publish a change once, the websocket layer (and any other listener)
 * receives it. The in-process bus serves SQLite and single-process PostgreSQL; a PostgreSQL
 * LISTEN/NOTIFY bus with the same interface carries changes across processes.
 */
/** What each channel carries: the websocket channels' wire objects and the internal channels' messages. */
export type BusPayloads = WsPayloads & InternalPayloads;
export type BusChannel = keyof BusPayloads;
export type BusListener<C extends BusChannel = BusChannel> = (payload: BusPayloads[C]) => void;

export interface ChannelBus {
  publish<C extends BusChannel>(channel: C, payload: BusPayloads[C]): void;
  subscribe<C extends BusChannel>(channel: C, listener: BusListener<C>): () => void;
  close(): Promise<void>;
  /**
   * Resolves once every message published so far has left for the other server processes (or
   * could not be sent). Absent on a bus that reaches this process only.
   */
  sent?(): Promise<void>;
}

/** The emitter's own listener type: the bus's signatures keep each channel's payload type. */
export type EmitterListener = (payload: unknown) => void;

export class LocalBus implements ChannelBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish<C extends BusChannel>(channel: C, payload: BusPayloads[C]): void {
    this.emitter.emit(channel, payload);
  }

  subscribe<C extends BusChannel>(channel: C, listener: BusListener<C>): () => void {
    const onMessage = listener as EmitterListener;
    this.emitter.on(channel, onMessage);
    return () => this.emitter.off(channel, onMessage);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
