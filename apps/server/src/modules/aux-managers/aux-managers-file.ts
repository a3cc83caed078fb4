import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { pathLabel } from '@bathylog/shared';
import { ConfigProblem, loadYaml, parseManagerConfig } from './aux-config.js';

/**
 * The managers file (docs/aux-managers.md#the-managers-file): a YAML list of managers, each Bathylog's keys
 * (`name`, `kind`, `enabled`, `required`, `max_age_seconds`, `timeout_seconds`) beside Sealog's item, written
 * inline or read from a vessel's existing file (`sealog_file: path[:data_source]`, as Sealog's runner takes
 * `-f file:data_source`), plus `source:`.
 */
const entrySchema = z
  .object({
    name: z.string().min(1).max(100).optional(),
    kind: z.string().min(1),
    enabled: z.boolean().optional(),
    required: z.boolean().optional(),
    max_age_seconds: z.number().positive().max(86_400).optional(),
    timeout_seconds: z.number().positive().max(600).optional(),
    sealog_file: z.string().min(1).optional(),
  })
  .passthrough();

export interface FileManager {
  name: string;
  kind: string;
  enabled?: boolean;
  required?: boolean;
  max_age_seconds?: number;
  timeout_seconds?: number;
  config_yaml: string;
  /** The entry's hash: an entry unchanged since the last start leaves the client's edits alone. */
  hash: string;
}

function sealogItem(file: string, base: string, where: string): Record<string, unknown> {
  const [rel, dataSource] = file.split(':') as [string, string | undefined];
  const full = path.resolve(base, rel);
  let doc: unknown;
  try {
    doc = loadYaml().parse(readFileSync(full, 'utf8'));
  } catch (err) {
    throw new ConfigProblem(`${where}.sealog_file: ${full} cannot be read (${(err as Error).message.split('\n')[0]})`);
  }
  const items = (Array.isArray(doc) ? doc : [doc]) as Array<Record<string, unknown>>;
  const chosen = dataSource ? items.filter((i) => i && i.data_source === dataSource) : items;
  if (chosen.length !== 1)
    throw new ConfigProblem(
      `${where}.sealog_file: ${full} holds ${chosen.length} items${dataSource ? ` for ${dataSource}` : ''}; name one as file:data_source`,
    );
  return chosen[0]!;
}

/** Reads and checks the managers file; throws ConfigProblem naming the entry and key. */
export function readManagersFile(file: string): FileManager[] {
  let doc: unknown;
  try {
    doc = loadYaml().parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigProblem(`${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { managers?: unknown } | null)?.managers;
  if (!Array.isArray(list)) throw new ConfigProblem(`${file}: must hold a list of managers (or managers: [...])`);
  const names = new Set<string>();
  return list.map((raw, i) => {
    const where = `managers[${i}]`;
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) {
      const issue = entry.error.issues[0]!;
      throw new ConfigProblem(`${file}: ${pathLabel([`managers`, i, ...issue.path])}: ${issue.message}`);
    }
    const { name, kind, enabled, required, max_age_seconds, timeout_seconds, sealog_file, ...rest } = entry.data;
    const item = sealog_file ? { ...sealogItem(sealog_file, path.dirname(file), where), ...rest } : rest;
    const configYaml = loadYaml().stringify(item);
    let dataSource: string;
    try {
      dataSource = parseManagerConfig(kind, configYaml).dataSource;
    } catch (err) {
      throw new ConfigProblem(`${file}: ${where}${name ? ` (${name})` : ''}: ${(err as Error).message}`);
    }
    const finalName = name ?? dataSource;
    if (names.has(finalName)) throw new ConfigProblem(`${file}: ${where}.name: ${finalName} is named twice`);
    names.add(finalName);
    const fields = {
      name: finalName,
      kind,
      enabled,
      required,
      max_age_seconds,
      timeout_seconds,
      config_yaml: configYaml,
    };
    const hash = createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 32);
    return {
      ...fields,
      ...(enabled === undefined ? {} : { enabled }),
      hash,
    } as FileManager;
  });
}
