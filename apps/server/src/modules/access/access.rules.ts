import type { AuthContext } from '../../plugins/auth.js';
import type { RecordKind } from './access.repository.js';
import type { ArchiveView } from '../../plugins/auth.js';

/**
 * Who sees a cruise or lowering (docs/roles-and-access.md#hidden-records-and-access-lists). Admins
 * see everything. For others:
 *
 * - Without access control: hidden records are left out of every list (lists, bycruise,
 *   bylowering, byevent), but a record opened by its id is returned even when hidden (Sealog).
 * - With access control: a non-empty access list restricts the record to its members, hidden or
 *   not; a record with an empty list behaves as without access control. Sealog listed every
 *   non-hidden record yet refused to open one whose list lacked the caller; we list exactly what
 *   the caller may open, less the hidden ones they are not named on.
 */
export interface Viewer {
  userId: string;
  isAdmin: boolean;
  /**
   * Set for the anonymous archive visitor, who follows the archive rule instead of all the above
   * (archive.ts): opens open records, lists open ones and stubs, whatever the access lists say.
   */
  archive?: ArchiveView;
}

export interface AccessFields {
  hidden: boolean;
  accessList: readonly string[];
  /** Which record it is: the archive rule goes by the record's archive state. */
  ref?: { kind: RecordKind; id: string };
  /**
   * Copied from a followed ship with a non-empty access list (`shipRestriction`): the list names
   * the ship's users, so here only admins open it, whatever the access-control setting
   * (docs/public-archive.md#records-from-a-ship).
   */
  shipRestricted?: boolean;
}

export function viewerOf(caller: AuthContext): Viewer {
  return { userId: caller.user.id, isAdmin: caller.isAdmin, ...(caller.archive ? { archive: caller.archive } : {}) };
}

/** May the viewer open the record by id (GET, bump, PATCH, its files)? */
export function canOpenRecord(viewer: Viewer, record: AccessFields, useAccessControl: boolean): boolean {
  if (viewer.archive) return !!record.ref && viewer.archive.state(record.ref.kind, record.ref.id) === 'open';
  if (viewer.isAdmin) return true;
  if (record.shipRestricted) return false;
  if (!useAccessControl) return true;
  return record.accessList.length === 0 || record.accessList.includes(viewer.userId);
}

/** Is the record included in lists shown to the viewer? (SQL twin: `listedForCondition`.) */
export function isListedFor(viewer: Viewer, record: AccessFields, useAccessControl: boolean): boolean {
  if (viewer.archive) return !!record.ref && viewer.archive.state(record.ref.kind, record.ref.id) !== 'closed';
  if (viewer.isAdmin) return true;
  if (record.shipRestricted) return false;
  if (!useAccessControl) return !record.hidden;
  if (record.accessList.includes(viewer.userId)) return true;
  return !record.hidden && record.accessList.length === 0;
}
