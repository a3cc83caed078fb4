import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { RecordsRepository, type RecordOf } from '../records/records.repository.js';

/** A lowering (dive) row with its JSON and flag columns decoded; times are epoch ms. */
export type LoweringRecord = RecordOf<'lowering'>;

export class LoweringsRepository extends RecordsRepository<'lowering'> {
  constructor(db: Kysely<DB> | Transaction<DB>, dialect: Dialect) {
    super('lowering', db, dialect);
  }
}
