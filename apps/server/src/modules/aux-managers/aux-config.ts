import { z } from 'zod';
import type * as Yaml from 'yaml';
import { pathLabel } from '@bathylog/shared';
import { sourceKinds } from '../../aux-sources/index.js';
import { lazyPackage } from '../../lib/lazy-package.js';

/** yaml, loaded with the first managers file or configuration read. */
export const loadYaml = lazyPackage<typeof Yaml>('yaml');

/**
 * A manager's configuration (docs/aux-managers.md#configuration): Sealog's aux_data_manager item read
 * unchanged (`data_source`, `query_measurements`, `query_filters`, `aux_record_lookup` with `name`, `uom`,
 * `round`, `no_output`, `modify`), the runner's exclude list as `exclude_event_values`, and `source:`, where the
 * source is (checked by its kind's schema).
 */
const testSchema = z
  .strictObject({
    field: z.string().min(1),
    eq: z.union([z.string(), z.number(), z.boolean()]).optional(),
    ne: z.union([z.string(), z.number(), z.boolean()]).optional(),
    gt: z.number().optional(),
    gte: z.number().optional(),
    lt: z.number().optional(),
    lte: z.number().optional(),
  })
  .refine((t) => ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'].some((k) => k in t), {
    message: 'needs one of eq, ne, gt, gte, lt, lte',
  });

const operationSchema = z
  .strictObject({
    add: z.number().optional(),
    subtract: z.number().optional(),
    multiply: z.number().optional(),
    divide: z
      .number()
      .refine((n) => n !== 0, 'must not be 0')
      .optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { message: 'needs one of add, subtract, multiply, divide' });

const ruleSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    uom: z.string().optional(),
    round: z.number().int().min(0).max(15).optional(),
    no_output: z.boolean().optional(),
    /** Bathylog: a live source interpolates this value between the fixes around the event's time. */
    interpolate: z.boolean().optional(),
    modify: z
      .array(
        z.strictObject({
          test: z.array(testSchema).optional(),
          operation: z.array(operationSchema).optional(),
        }),
      )
      .optional(),
  })
  .refine((r) => r.no_output === true || r.name !== undefined, {
    message: 'needs a name (or no_output: true)',
    path: ['name'],
  });
export type LookupRule = z.infer<typeof ruleSchema>;

const itemSchema = z.strictObject({
  data_source: z.string().min(1).max(200),
  query_measurements: z.array(z.string().min(1)).optional(),
  /** Sealog's InfluxQL conditions; one condition each, no statement separator. */
  query_filters: z
    .array(
      z
        .string()
        .min(1)
        .refine((f) => !/[;\n]/.test(f), 'must be one condition, without ; or a line break'),
    )
    .optional(),
  // Sealog's v2 readers name the bucket here; for InfluxDB 1.x it is the database.
  query_bucket: z.string().optional(),
  aux_record_lookup: z
    .record(z.string().min(1), ruleSchema)
    .refine((r) => Object.keys(r).length > 0, 'needs at least one field'),
  exclude_event_values: z.array(z.string()).optional(),
  source: z.record(z.string(), z.unknown()).optional(),
});

export interface ManagerConfig {
  dataSource: string;
  measurements: string[];
  filters: string[];
  lookup: Record<string, LookupRule>;
  excludeEventValues: string[];
  /** The `source:` key, checked by the kind's schema. */
  source: unknown;
}

/** A configuration that does not hold: the message names the key. */
export class ConfigProblem extends Error {}

function firstIssue(error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0]!;
  return `${pathLabel([...prefix, ...issue.path])}: ${issue.message}`;
}

/** Reads and checks a manager's YAML for its kind; throws ConfigProblem naming the key. */
export function parseManagerConfig(kind: string, yamlText: string): ManagerConfig {
  const sourceKind = sourceKinds[kind];
  if (!sourceKind)
    throw new ConfigProblem(
      `kind: unknown source kind "${kind.slice(0, 50)}" (known: ${Object.keys(sourceKinds).join(', ')})`,
    );
  let doc: unknown;
  try {
    doc = loadYaml().parse(yamlText, { maxAliasCount: 100 });
  } catch (err) {
    if (err instanceof loadYaml().YAMLParseError) {
      const pos = err.linePos?.[0];
      throw new ConfigProblem(
        `YAML${pos ? ` line ${pos.line}, column ${pos.col}` : ''}: ${err.message.split('\n')[0]}`,
      );
    }
    throw new ConfigProblem('YAML: cannot be read');
  }
  // A ported Sealog file is a list; a manager is one of its items.
  if (Array.isArray(doc)) {
    if (doc.length !== 1)
      throw new ConfigProblem('YAML: a manager holds one data source (one list item); split the file');
    doc = doc[0];
  }
  const item = itemSchema.safeParse(doc);
  if (!item.success) throw new ConfigProblem(firstIssue(item.error));
  const sealog = item.data;
  const sourceInput = { ...(sealog.source ?? {}) };
  if (kind === 'influx' && sealog.query_bucket && !('database' in sourceInput))
    sourceInput.database = sealog.query_bucket;
  const source = sourceKind.configSchema.safeParse(sourceInput);
  if (!source.success) throw new ConfigProblem(firstIssue(source.error, ['source']));
  if (kind === 'influx' && !(sealog.query_measurements?.length ?? 0))
    throw new ConfigProblem('query_measurements: InfluxDB needs at least one measurement');
  return {
    dataSource: sealog.data_source,
    measurements: sealog.query_measurements ?? [],
    filters: sealog.query_filters ?? [],
    lookup: sealog.aux_record_lookup,
    excludeEventValues: sealog.exclude_event_values ?? [],
    source: source.data,
  };
}

/** The data source a manager's YAML names, or '' when it does not parse (lists show it anyway). */
export function dataSourceOf(kind: string, yamlText: string): string {
  try {
    return parseManagerConfig(kind, yamlText).dataSource;
  } catch {
    return '';
  }
}
