import type { z } from 'zod';
import type { AuxSource } from '../source.js';
import type { SourceDeps } from './config.js';
import { FfmpegStillSource, ffmpegStillConfigSchema } from './ffmpeg-still.js';
import { GpsdSource, gpsdConfigSchema } from './gpsd.js';
import { HttpSnapshotSource, httpSnapshotConfigSchema } from './http-snapshot.js';
import { MqttSource, mqttConfigSchema } from './mqtt.js';
import { NmeaSource, nmeaConfigSchema } from './nmea.js';
import { OpenrvdasSource, openrvdasConfigSchema } from './openrvdas.js';
import { OpenrvdasWsSource, openrvdasWsConfigSchema } from './openrvdas-ws.js';

export interface LiveSourceKind {
  /** Checks a manager's source configuration; its messages name the key. */
  configSchema: z.ZodType;
  create(config: unknown, deps: SourceDeps): AuxSource;
}

/**
 * The built-in live sources, by the `kind` a manager's configuration names
 * (docs/aux-live-sources.md). `create` parses its config with `configSchema` (it throws a ZodError
 * naming the key when it is wrong).
 */
export const liveSources: Record<string, LiveSourceKind> = {
  gpsd: { configSchema: gpsdConfigSchema, create: (c, deps) => new GpsdSource(gpsdConfigSchema.parse(c), deps) },
  nmea: { configSchema: nmeaConfigSchema, create: (c, deps) => new NmeaSource(nmeaConfigSchema.parse(c), deps) },
  openrvdas: {
    configSchema: openrvdasConfigSchema,
    create: (c, deps) => new OpenrvdasSource(openrvdasConfigSchema.parse(c), deps),
  },
  openrvdas_ws: {
    configSchema: openrvdasWsConfigSchema,
    create: (c, deps) => new OpenrvdasWsSource(openrvdasWsConfigSchema.parse(c), deps),
  },
  mqtt: { configSchema: mqttConfigSchema, create: (c, deps) => new MqttSource(mqttConfigSchema.parse(c), deps) },
  http_snapshot: {
    configSchema: httpSnapshotConfigSchema,
    create: (c, deps) => new HttpSnapshotSource(httpSnapshotConfigSchema.parse(c), deps),
  },
  ffmpeg_still: {
    configSchema: ffmpegStillConfigSchema,
    create: (c, deps) => new FfmpegStillSource(ffmpegStillConfigSchema.parse(c), deps),
  },
};
