import {
  mayUseAdminOnlyTemplates,
  messages,
  newObjectId,
  type CreateEventTemplate,
  type EventTemplate,
  type UpdateEventTemplate,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { recordChange } from '../audit/audit.js';
import { EventTemplatesRepository, type EventTemplateRecord } from './event-templates.repository.js';
import { copiedIds } from '../../origins/record-origins.js';

/**
 * The wire shape. `disabled` only for admins, never in websocket pushes
 * (docs/wire.md#event-templates, docs/wire.md#channels).
 */
export function toWireTemplate(t: EventTemplateRecord, opts: { withDisabled: boolean }): EventTemplate {
  return {
    event_name: t.event_name,
    event_value: t.event_value,
    event_free_text_required: t.event_free_text_required,
    system_template: t.system_template,
    template_categories: t.template_categories,
    ...(t.template_style !== null ? { template_style: t.template_style } : {}),
    ...(t.event_button_color !== null ? { event_button_color: t.event_button_color } : {}),
    ...(opts.withDisabled ? { disabled: t.disabled } : {}),
    admin_only: t.admin_only,
    event_options: t.event_options,
    id: t.id,
  };
}

const published = (t: EventTemplateRecord) => toWireTemplate(t, { withDisabled: false });

/** Button order: case-insensitive by name, then exact name, then id, the same on both engines. */
function compareByName(a: EventTemplateRecord, b: EventTemplateRecord): number {
  const la = a.event_name.toLowerCase();
  const lb = b.event_name.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  if (a.event_name !== b.event_name) return a.event_name < b.event_name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Refusals on a record the caller may otherwise write: 403 with the reason, as the cruise and
 * lowering field locks do. The one refusal Sealog itself had (deleting a system template) keeps
 * its 401 and message, which clients already show.
 */
const notAllowed = (message: string) => new AppError('FORBIDDEN', message);

export interface TemplateListQuery {
  system_template?: boolean;
  admin_only?: boolean;
  sort?: 'event_name';
  offset?: number;
  limit?: number;
}

/**
 * Event templates and their rules (docs/roles-and-access.md#event-templates): anyone with the read scope lists
 * usable templates; template writers edit non-system templates; system templates and the
 * system_template / admin_only / disabled flags belong to admins. admin_only only means something
 * on a system template, so it is stored false on every other one.
 */
export class EventTemplatesService {
  constructor(private readonly ctx: AppContext) {}

  /** The template as its channels publish it, for copies from a ship (docs/ship-to-shore.md#the-shore). */
  async published(id: string): Promise<EventTemplate | undefined> {
    const record = await new EventTemplatesRepository(this.ctx.database.db).findById(id);
    return record && published(record);
  }

  private get repo() {
    return new EventTemplatesRepository(this.ctx.database.db);
  }

  async list(caller: AuthContext, query: TemplateListQuery): Promise<EventTemplate[]> {
    const rows = await this.repo.list({
      ...(query.system_template !== undefined ? { systemTemplate: query.system_template } : {}),
      ...(query.admin_only !== undefined ? { adminOnly: query.admin_only } : {}),
      usableByNonAdmin: !caller.isAdmin,
      withAdminOnly: mayUseAdminOnlyTemplates(caller.user.roles),
    });
    rows.sort(compareByName);
    const start = query.offset ?? 0;
    const page = rows.slice(start, query.limit !== undefined ? start + query.limit : undefined);
    if (page.length === 0) throw new AppError('NOT_FOUND', messages.noRecords);
    return page.map((t) => toWireTemplate(t, { withDisabled: caller.isAdmin }));
  }

  async get(caller: AuthContext, id: string): Promise<EventTemplate> {
    const template = await this.repo.findById(id);
    if (!template) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    if (template.admin_only && !mayUseAdminOnlyTemplates(caller.user.roles))
      throw new AppError('NOT_FOUND', 'template only available to admin users');
    return toWireTemplate(template, { withDisabled: caller.isAdmin });
  }

  /** Flags a non-admin may not turn on. `false` is accepted: the form always sends the flags. */
  private checkFlags(
    caller: AuthContext,
    body: { system_template?: boolean; admin_only?: boolean; disabled?: boolean },
  ): void {
    if (caller.isAdmin) return;
    if (body.system_template === true) throw notAllowed('Only admins can create or edit system templates');
    if (body.admin_only === true) throw notAllowed('Only admins can make a template admin only');
    if (body.disabled === true) throw notAllowed('Only admins can disable templates');
  }

  async create(caller: AuthContext, body: CreateEventTemplate): Promise<string> {
    this.checkFlags(caller, body);
    const record: EventTemplateRecord = {
      id: body.id ?? newObjectId(),
      event_name: body.event_name,
      event_value: body.event_value,
      event_free_text_required: body.event_free_text_required,
      system_template: body.system_template,
      template_categories: body.template_categories ?? [],
      template_style: body.template_style ?? null,
      event_button_color: body.event_button_color ?? null,
      disabled: body.disabled ?? false,
      admin_only: body.system_template ? (body.admin_only ?? false) : false,
      event_options: body.event_options ?? [],
    };
    const repo = this.repo;
    if (body.id && (await repo.findById(body.id))) throw new AppError('BAD_REQUEST', messages.duplicateTemplate);
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await new EventTemplatesRepository(trx).insert(record);
        await recordChange(trx, caller, {
          action: 'create',
          record_type: 'event_template',
          record_id: record.id,
          new_value: published(record),
        });
      });
    } catch (err) {
      // Two imports of the same id at once: the second sees the first's row.
      if (await repo.findById(record.id)) throw new AppError('BAD_REQUEST', messages.duplicateTemplate);
      throw err;
    }
    this.ctx.bus.publish('newEventTemplates', published(record));
    return record.id;
  }

  async update(caller: AuthContext, id: string, body: UpdateEventTemplate): Promise<void> {
    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new EventTemplatesRepository(trx);
      const stored = await repo.findById(id);
      if (!stored) throw new AppError('BAD_REQUEST', `No record found for id: ${id}`);
      if (!caller.isAdmin && stored.system_template)
        throw notAllowed('user does not have permission to edit system templates');
      this.checkFlags(caller, body);
      // A non-admin never sees `disabled`, so the `false` their form sends must not re-enable a template.
      const { disabled, ...rest } = body;
      const merged: EventTemplateRecord = {
        ...stored,
        ...rest,
        ...(caller.isAdmin && disabled !== undefined ? { disabled } : {}),
      };
      if (!merged.system_template) merged.admin_only = false;
      await repo.replace(merged);
      await recordChange(trx, caller, {
        action: 'update',
        record_type: 'event_template',
        record_id: id,
        old_value: published(stored),
        new_value: published(merged),
      });
      return merged;
    });
    this.ctx.bus.publish('updateEventTemplates', published(updated));
  }

  async remove(caller: AuthContext, id: string): Promise<void> {
    const deleted = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new EventTemplatesRepository(trx);
      const stored = await repo.findById(id);
      if (!stored) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
      if (!caller.isAdmin && stored.system_template) {
        throw new AppError('UNAUTHORIZED', 'user does not have permission to delete system templates');
      }
      await repo.delete(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'event_template',
        record_id: id,
        old_value: published(stored),
      });
      return stored;
    });
    this.ctx.bus.publish('deleteEventTemplates', published(deleted));
  }

  /**
   * Deletes every non-system template the caller can see (bulk deletes never touch system
   * templates: docs/wire.md#event-templates); for a non-admin that leaves disabled ones alone, as the list they
   * looked at did not show them. Publishes one delete per template.
   */
  async removeAllNonSystem(caller: AuthContext): Promise<number> {
    const deleted = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new EventTemplatesRepository(trx);
      const listed = await repo.list({ systemTemplate: false });
      // On a shore, templates copied from a ship are left out (docs/ship-to-shore.md#bulk-deletes-on-shore).
      const copied = await copiedIds(
        this.ctx,
        trx,
        'event_template',
        listed.map((t) => t.id),
      );
      const doomed = copied.size === 0 ? listed : listed.filter((t) => !copied.has(t.id));
      await repo.deleteMany(doomed.map((t) => t.id));
      for (const t of doomed) {
        await recordChange(trx, caller, {
          action: 'bulk_delete',
          record_type: 'event_template',
          record_id: t.id,
          old_value: published(t),
        });
      }
      return doomed;
    });
    for (const t of deleted) this.ctx.bus.publish('deleteEventTemplates', published(t));
    return deleted.length;
  }
}
