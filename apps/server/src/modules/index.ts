import { archiveViewOf, followArchiveChanges } from './access/archive-cache.js';
import type { AppContext } from '../context.js';
import { removeRecordingsOfLowerings } from './recordings/recording-files.js';
import type { CallerStore } from '../plugins/auth.js';
import type { ApiInstance } from '../plugins/types.js';
import { authRoutes } from './auth/auth.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { eventsRoutes } from './events/events.routes.js';
import { eventAuxDataRoutes } from './event-aux-data/event-aux-data.routes.js';
import { eventExportsRoutes } from './event-exports/event-exports.routes.js';
import { gisExportsRoutes } from './gis-exports/gis-exports.routes.js';
import { diveMetricsRoutes } from './dive-metrics/dive-metrics.routes.js';
import { cruisesRoutes } from './cruises/cruises.routes.js';
import { loweringsRoutes } from './lowerings/lowerings.routes.js';
import { eventTemplatesRoutes } from './event-templates/event-templates.routes.js';
import { customVarsRoutes } from './custom-vars/custom-vars.routes.js';
import { externalCallsRoutes } from './external-calls/external-calls.routes.js';
import { deviceKeysRoutes } from './device-keys/device-keys.routes.js';
import { auditRoutes } from './audit/audit.routes.js';
import { backupsRoutes } from './backups/backups.routes.js';
import { checklistsRoutes } from './checklists/checklists.routes.js';
import { completenessRoutes } from './completeness/completeness.routes.js';
import { syncRoutes } from './sync/sync.routes.js';
import { publicationRoutes } from './publication/publication.routes.js';
import { taxaRoutes } from './taxa/taxa.routes.js';
import { recordingsRoutes } from './recordings/recordings.routes.js';
import { storageRoutes } from './storage/storage.routes.js';
import { auxManagersRoutes } from './aux-managers/aux-managers.routes.js';
import { copiedEventComments, shipOriginHooks } from './sync/ship-origin-hooks.js';
import type { OriginExceptions } from '../origins/origin-guard.js';
import { EventAuxDataRepository } from './event-aux-data/event-aux-data.repository.js';
import { EventsRepository } from './events/events.repository.js';
import { userCallers } from './users/user-callers.js';
import { deviceKeyCallers } from './device-keys/device-key-callers.js';

/** Every REST module, registered under /sealog-server/api/v1. One line per resource. */
export const apiModules: Array<(app: ApiInstance, ctx: AppContext) => void> = [
  // First: its hooks mark copied records in reads and queue comments on them for every route after it.
  shipOriginHooks,
  authRoutes,
  usersRoutes,
  cruisesRoutes,
  loweringsRoutes,
  eventTemplatesRoutes,
  customVarsRoutes,
  externalCallsRoutes,
  eventsRoutes,
  eventAuxDataRoutes,
  eventExportsRoutes,
  gisExportsRoutes,
  diveMetricsRoutes,
  deviceKeysRoutes,
  auditRoutes,
  backupsRoutes,
  checklistsRoutes,
  completenessRoutes,
  syncRoutes,
  publicationRoutes,
  taxaRoutes,
  recordingsRoutes,
  storageRoutes,
  auxManagersRoutes,
];

/** What authentication reads, from the modules that own it (plugins/auth.ts imports no module). */
export const callerStore: CallerStore = {
  ...userCallers,
  ...deviceKeyCallers,
  archiveView: (db, now, member) => archiveViewOf(db, now, member),
};

/**
 * What the modules keep of the database between requests, and drop when it changes; app.ts starts
 * it once per app and stops it on close: the archive state of every cruise and lowering (the
 * archive's readers and every non-admin's event access read it).
 */
export function followCachedState(ctx: AppContext): () => void {
  return followArchiveChanges(ctx.database, ctx.bus);
}

/** What a deletion of cruises or lowerings takes with it, from the modules that own it (records.service.ts runs them). */
export const removeCascades: AppContext['removeCascades'] = {
  cruise: [],
  lowering: [removeRecordingsOfLowerings],
};

/** The changes the read-only rule allows on records copied from a ship (origins/origin-guard.ts). */
export function originExceptions(ctx: AppContext): OriginExceptions {
  return {
    ...copiedEventComments(ctx),
    // A hidden event (or its aux record) is answered as missing by its route, never as read-only.
    async hidden(request, type, id) {
      const access = request.eventAccess;
      if (!access || access.seesEverything || (type !== 'event' && type !== 'event_aux_data')) return false;
      const db = ctx.database.db;
      const eventId = type === 'event' ? id : (await new EventAuxDataRepository(db).findById(id))?.event_id;
      const event = eventId ? await new EventsRepository(db).findById(eventId) : undefined;
      return !event || !(await access.maySeeEvent(db, event));
    },
  };
}
