import type { AppContext } from '../../context.js';
import { CompletenessRepository } from './completeness.repository.js';
import { completenessSettings, type CompletenessSettings } from './completeness.rules.js';

/** The completeness settings of a lowering by id (its own required sources), or the deployment's. */
export async function loweringCompletenessSettings(
  ctx: AppContext,
  loweringId: string | undefined,
): Promise<CompletenessSettings> {
  const lowering = loweringId ? await new CompletenessRepository(ctx.database.db).lowering(loweringId) : undefined;
  return completenessSettings(ctx.config, lowering?.lowering_additional_meta);
}
