import type { TaxonInput } from '../../taxonomy/taxonomy.repository.js';

/**
 * Real WoRMS taxa for the publication tests, with their real AphiaIDs, names, authorities and
 * parents (as OBIS serves them for WoRMS-matched records): a class, a genus and one of its species
 * (for `cf.`, published as the genus), with their ancestors up to the kingdom.
 */
export const publicationTaxa: TaxonInput[] = [
  { aphia_id: 2, scientific_name: 'Animalia', rank: 'Kingdom', status: 'accepted', accepted_aphia_id: 2 },
  { aphia_id: 1806, scientific_name: 'Echinodermata', rank: 'Phylum', status: 'accepted', accepted_aphia_id: 1806, parent_aphia_id: 2 },
  {
    aphia_id: 123084,
    scientific_name: 'Ophiuroidea',
    authority: 'Gray, 1840',
    rank: 'Class',
    status: 'accepted',
    accepted_aphia_id: 123084,
    parent_aphia_id: 1806,
  },
  { aphia_id: 51, scientific_name: 'Mollusca', rank: 'Phylum', status: 'accepted', accepted_aphia_id: 51, parent_aphia_id: 2 },
  { aphia_id: 101, scientific_name: 'Gastropoda', rank: 'Class', status: 'accepted', accepted_aphia_id: 101, parent_aphia_id: 51 },
  { aphia_id: 149, scientific_name: 'Buccinidae', rank: 'Family', status: 'accepted', accepted_aphia_id: 149, parent_aphia_id: 101 },
  { aphia_id: 137701, scientific_name: 'Buccinum', rank: 'Genus', status: 'accepted', accepted_aphia_id: 137701, parent_aphia_id: 149 },
  {
    aphia_id: 160143,
    scientific_name: 'Buccinum finmarkianum',
    authority: 'Verkrüzen, 1875',
    rank: 'Species',
    status: 'accepted',
    accepted_aphia_id: 160143,
    parent_aphia_id: 137701,
  },
];
