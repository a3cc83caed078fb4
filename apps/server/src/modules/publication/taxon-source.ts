import type { AppContext } from '../../context.js';
import type { TaxonSource } from './taxa.js';

/** The ship's taxonomy as publication reads it. */
export function taxonSourceOf(_ctx: AppContext): TaxonSource {
  return {
    findMany: async () => new Map(),
    ancestors: async () => [],
    legacyMapping: async () => undefined,
  };
}
