import { EventEmitter } from 'node:events';

/**
 * The channel bus: services publish a change once, the websocket layer (and any other listener)
 * receives it. The in-process bus serves SQLite and single-process PostgreSQL; a PostgreSQL
 * LISTEN/NOTIFY bus with the same interface carries changes across processes.
 */
export type BusListener = (payload: unknown) => void;

export interface ChannelBus {
  publish(channel: string, payload: unknown): void;
  subscribe(channel: string, listener: BusListener): () => void;
  close(): Promise<void>;
}

export class LocalBus implements ChannelBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(channel: string, payload: unknown): void {
    this.emitter.emit(channel, payload);
  }

  subscribe(channel: string, listener: BusListener): () => void {
    this.emitter.on(channel, listener);
    return () => this.emitter.off(channel, listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
