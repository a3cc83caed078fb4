import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { InfluxSource, influxSourceSchema, type InfluxSourceConfig } from './influx.js';
import { liveSources } from './live/index.js';
import type { AuxSource } from './source.js';

/** What a manager's Sealog-style YAML tells its source besides `source:` (Sealog's query keys). */
export interface SourceQuery {
  measurements: readonly string[];
  filters: readonly string[];
}

/** A kind of source: the schema of a manager's `source:` key and how one is made. */
export interface SourceKind {
  configSchema: z.ZodType;
  create(config: unknown, query: SourceQuery, deps: { log: FastifyBaseLogger }): AuxSource;
}

/**
 * Every source kind a manager may name (docs/aux-managers.md#sources): InfluxDB, and the live sources of
 * aux-sources/live/.
 */
export const sourceKinds: Record<string, SourceKind> = {
  influx: {
    configSchema: influxSourceSchema,
    create: (config, query) => new InfluxSource(config as InfluxSourceConfig, query),
  },
  ...Object.fromEntries(
    Object.entries(liveSources).map(([kind, live]) => [
      kind,
      {
        configSchema: live.configSchema,
        create: (config: unknown, _q: SourceQuery, deps) => live.create(config, deps),
      },
    ]),
  ),
};
