import { z } from 'zod';

/** Options every buffered live source shares, in the YAML's snake_case. */
export const bufferOptions = {
  /** How far back the buffer answers (the age bound). */
  buffer_seconds: z.number({ message: 'buffer_seconds must be a number of seconds' }).positive().max(3600).default(120),
  /** At most this many readings are kept (the count bound). */
  buffer_count: z.number({ message: 'buffer_count must be a whole number' }).int().min(2).max(100_000).default(5000),
  /** Connected but silent this long counts as unhealthy. */
  silence_seconds: z.number({ message: 'silence_seconds must be a number of seconds' }).min(0).default(20),
  /** The first retry after a lost connection; later ones wait up to 30 s. */
  reconnect_seconds: z.number({ message: 'reconnect_seconds must be a number of seconds' }).positive().default(1),
  /**
   * A reading's time: when it was received (default: the ship's clock, the one events are stamped
   * with), or the time the peer put in it, where the protocol carries one.
   */
  timestamps: z
    .enum(['received', 'source'], { message: "timestamps must be 'received' or 'source'" })
    .default('received'),
};

export const host = z.string({ message: 'host must be a host name or address' }).min(1, 'host must not be empty');
export const port = z
  .number({ message: 'port must be a number' })
  .int('port must be a whole number')
  .min(1, 'port must be between 1 and 65535')
  .max(65535, 'port must be between 1 and 65535');

/** Options of the UDP listeners (NMEA over UDP, OpenRVDAS). */
export const udpOptions = {
  /** An IPv4 multicast group to join (224.0.0.0 to 239.255.255.255), as many ship networks send. */
  multicast_group: z
    .string()
    .regex(
      /^(22[4-9]|23\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)\.(25[0-5]|2[0-4]\d|1?\d?\d)$/,
      'multicast_group must be an IPv4 multicast address (224.0.0.0 to 239.255.255.255)',
    )
    .optional(),
  /** The local address of the interface that joins the group (the system's choice when absent). */
  multicast_interface: z.ipv4({ message: 'multicast_interface must be an IPv4 address' }).optional(),
};

export interface UdpOptions {
  host?: string | undefined;
  port: number;
  multicast_group?: string | undefined;
  multicast_interface?: string | undefined;
}

export interface BufferOptions {
  buffer_seconds: number;
  buffer_count: number;
  silence_seconds: number;
  reconnect_seconds: number;
  timestamps: 'received' | 'source';
}

/** The buffer's limits and the health's silence bound, in ms. */
export function limitsOf(options: BufferOptions) {
  return {
    buffer: { maxAgeMs: options.buffer_seconds * 1000, maxCount: options.buffer_count },
    silenceMs: options.silence_seconds * 1000,
    reconnectMs: [options.reconnect_seconds * 1000, Math.max(options.reconnect_seconds * 1000, 30_000)] as const,
  };
}

/** Where a source reports what it cannot say in its health (peer protocol oddities). */
export interface SourceDeps {
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}
