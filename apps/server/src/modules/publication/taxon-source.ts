import type { Taxon } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { TaxonomyRepository } from '../../taxonomy/taxonomy.repository.js';
import type { TaxonRecord, TaxonSource } from './taxa.js';

const record = (t: Taxon): TaxonRecord => ({
  aphiaId: t.aphia_id,
  name: t.scientific_name,
  authority: t.authority,
  rank: t.rank,
  status: t.status,
  acceptedAphiaId: t.accepted_aphia_id,
  parentAphiaId: t.parent_aphia_id,
});

/** The ship's taxonomy (taxonomy/, below the modules) as publication reads it. */
export function taxonSourceOf(ctx: AppContext): TaxonSource {
  const repo = () => new TaxonomyRepository(ctx.database.db);
  return {
    async findMany(ids) {
      const found = await repo().findManyByAphiaId(ids);
      return new Map([...found].map(([id, t]) => [id, record(t)]));
    },
    async ancestors(id) {
      return (await repo().ancestors(id)).map(record);
    },
    legacyMapping: (name, value) => repo().legacyMapping(name, value),
  };
}
