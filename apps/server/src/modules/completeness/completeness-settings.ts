import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { TsWindow } from '../access/event-access.js';
import { dataSourceOf } from '../aux-managers/aux-config.js';
import { CompletenessRepository } from './completeness.repository.js';
import { completenessSettings, type CompletenessSettings } from './completeness.rules.js';

/** The completeness settings of a lowering by id (its own required sources), or the deployment's. */
export async function loweringCompletenessSettings(
  ctx: AppContext,
  loweringId: string | undefined,
): Promise<CompletenessSettings> {
  const repo = new CompletenessRepository(ctx.database.db);
  const lowering = loweringId ? await repo.lowering(loweringId) : undefined;
  return completenessSettings(ctx.config, lowering?.lowering_additional_meta, await requiredManagerSources(repo));
}

/** Data sources by a hash of the manager's kind and YAML: each YAML is parsed once, not on every read. */
const sourceOfYaml = new Map<string, string>();

/**
 * The data sources of the enabled aux-data managers marked required (docs/completeness.md#required-aux-data-managers):
 * every lowering that requires anything requires these too. Read from the database on each call, so a manager
 * switched off or no longer required stops counting at once, on every process.
 */
export async function requiredManagerSources(repo: CompletenessRepository): Promise<string[]> {
  const out: string[] = [];
  for (const m of await repo.requiredManagers()) {
    const key = createHash('sha256').update(`${m.kind}\n${m.config_yaml}`).digest('base64');
    let source = sourceOfYaml.get(key);
    if (source === undefined) {
      source = dataSourceOf(m.kind, m.config_yaml);
      // Bounded: edits leave old YAML behind.
      if (sourceOfYaml.size >= 1000) sourceOfYaml.clear();
      sourceOfYaml.set(key, source);
    }
    // A manager whose YAML no longer holds has no data source: it is in error on the System screen instead.
    if (source !== '' && !out.includes(source)) out.push(source);
  }
  return out;
}

/**
 * How the events of [lo, hi] are judged when no one lowering is asked for (the global and cruise
 * lists): only events inside a dive, each by the settings of the dive holding it (the latest-starting
 * one where dives overlap, as the watcher judges them), so a list says what the footer, the lane and
 * the summary say (docs/completeness.md#states). Dives of the same sources share one rule.
 */
export async function diveCompletenessRules(
  ctx: AppContext,
  lo: number,
  hi: number,
): Promise<Array<{ settings: CompletenessSettings; windows: TsWindow[] }>> {
  const repo = new CompletenessRepository(ctx.database.db);
  const [lowerings, managerSources] = await Promise.all([
    repo.loweringsOverlapping(lo, hi),
    requiredManagerSources(repo),
  ]);
  const rules = new Map<string, { settings: CompletenessSettings; windows: TsWindow[] }>();
  // Latest start first: each dive keeps only the part of its window no later-starting dive holds.
  const taken: TsWindow[] = [];
  for (const l of lowerings) {
    const settings = completenessSettings(ctx.config, l.lowering_additional_meta, managerSources);
    const own = subtract({ lo: Math.max(lo, l.start_ts), hi: Math.min(hi, l.stop_ts) }, taken);
    taken.push({ lo: l.start_ts, hi: l.stop_ts });
    if (settings.sources.length === 0 || own.length === 0) continue;
    const key = settings.sources.join('\n');
    const rule = rules.get(key) ?? { settings, windows: [] };
    rule.windows.push(...own);
    rules.set(key, rule);
  }
  return [...rules.values()];
}

/** The parts of `w` outside every window of `cut` (inclusive bounds, epoch ms). */
function subtract(w: TsWindow, cut: readonly TsWindow[]): TsWindow[] {
  let parts = w.lo <= w.hi ? [w] : [];
  for (const c of cut) {
    parts = parts.flatMap((p) => {
      if (c.hi < p.lo || c.lo > p.hi) return [p];
      const out: TsWindow[] = [];
      if (c.lo > p.lo) out.push({ lo: p.lo, hi: c.lo - 1 });
      if (c.hi < p.hi) out.push({ lo: c.hi + 1, hi: p.hi });
      return out;
    });
  }
  return parts;
}
