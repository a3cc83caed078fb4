import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { AuxSource } from '../source.js';

/**
 * The live sources (gpsd, NMEA 0183, OpenRVDAS, MQTT, camera frame grabs) by kind: each kind's configuration
 * schema (the `source` key of a manager's YAML) and how one is made. Each module in this folder adds its kind.
 */
export const liveSources: Record<
  string,
  { configSchema: z.ZodType; create(config: unknown, deps: { log: FastifyBaseLogger }): AuxSource }
> = {};
