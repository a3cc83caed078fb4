import { messages, userImportBody } from '@bathylog/shared';
import { isApiError } from '../../api/client';
import { createUser } from '../../api/users';
import type { ImportOutcome } from '../../components/import-dialog';
import { resetPasswordUrl } from './user-form';

/**
 * One record of a user import file (docs/screens.md#user-import): created with a random 12-character password
 * when it has none; a 400 "duplicate uesr ID" (Sealog's spelling) means the user is already
 * there and counts as skipped; any other failure is thrown, and the dialog logs it.
 */
export async function importUserRecord(record: Record<string, unknown>): Promise<ImportOutcome> {
  try {
    await createUser(userImportBody(record, resetPasswordUrl()));
    return 'imported';
  } catch (err) {
    if (isApiError(err, 400) && err.message === messages.duplicateUser) return 'skipped';
    throw err;
  }
}
