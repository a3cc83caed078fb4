import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { RecordsRepository, type RecordOf } from '../records/records.repository.js';

/** A cruise row with its JSON and flag columns decoded; times are epoch ms. */
export type CruiseRecord = RecordOf<'cruise'>;

export class CruisesRepository extends RecordsRepository<'cruise'> {
  constructor(db: Kysely<DB> | Transaction<DB>, dialect: Dialect) {
    super('cruise', db, dialect);
  }
}
