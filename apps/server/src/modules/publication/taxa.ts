/**
 * What publication needs from the ship's taxonomy (WoRMS records): the taxa an archive names, their
 * ancestors, and the legacy mapping of old morphotype values. The taxonomy lives below the modules;
 * `taxonSource` (publication.service.ts) adapts it to this shape.
 */
export interface TaxonRecord {
  aphiaId: number;
  name: string;
  authority: string | null;
  rank: string | null;
  /** WoRMS status: `accepted`, `unaccepted`, … */
  status: string | null;
  acceptedAphiaId: number | null;
  parentAphiaId: number | null;
}

export interface LegacyTaxon {
  aphiaId: number;
  qualifier: string;
}

export interface TaxonSource {
  findMany(aphiaIds: readonly number[]): Promise<Map<number, TaxonRecord>>;
  /** Root first, without the taxon itself. */
  ancestors(aphiaId: number): Promise<TaxonRecord[]>;
  /** A template's or option's legacy value (`Brittle star`) mapped to a taxon, if the vessel mapped it. */
  legacyMapping(templateOrOptionName: string, value: string): Promise<LegacyTaxon | undefined>;
}

export { wormsLsid } from '@bathylog/shared';

/** The AphiaID in a WoRMS LSID, or null. */
export function aphiaIdOfLsid(lsid: string): number | null {
  const m = /^urn:lsid:marinespecies\.org:taxname:(\d{1,10})$/.exec(lsid);
  return m ? Number(m[1]) : null;
}
