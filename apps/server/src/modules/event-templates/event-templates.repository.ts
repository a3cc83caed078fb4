import type { Kysely, Selectable, Transaction } from 'kysely';
import type { EventTemplateOption } from '@bathylog/shared';
import type { DB, EventTemplatesTable } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';

/** A template row with its flags and JSON columns decoded. */
export interface EventTemplateRecord {
  id: string;
  event_name: string;
  event_value: string;
  event_free_text_required: boolean;
  system_template: boolean;
  template_categories: string[];
  template_style: Record<string, unknown> | null;
  event_button_color: string | null;
  disabled: boolean;
  admin_only: boolean;
  event_options: EventTemplateOption[];
}

function fromRow(row: Selectable<EventTemplatesTable>): EventTemplateRecord {
  const style = parseJson<Record<string, unknown> | null>(row.template_style, null);
  return {
    id: row.id,
    event_name: row.event_name,
    event_value: row.event_value,
    event_free_text_required: !!row.event_free_text_required,
    system_template: !!row.system_template,
    template_categories: parseJson<string[]>(row.template_categories, []),
    template_style: style && typeof style === 'object' && !Array.isArray(style) ? style : null,
    event_button_color: row.event_button_color,
    disabled: !!row.disabled,
    admin_only: !!row.admin_only,
    event_options: parseJson<EventTemplateOption[]>(row.event_options, []),
  };
}

function toRow(t: EventTemplateRecord): EventTemplatesTable {
  return {
    id: t.id,
    event_name: t.event_name,
    event_value: t.event_value,
    event_free_text_required: t.event_free_text_required ? 1 : 0,
    system_template: t.system_template ? 1 : 0,
    template_categories: JSON.stringify(t.template_categories),
    template_style: t.template_style === null ? null : JSON.stringify(t.template_style),
    event_button_color: t.event_button_color,
    disabled: t.disabled ? 1 : 0,
    admin_only: t.admin_only ? 1 : 0,
    event_options: JSON.stringify(t.event_options),
  };
}

export interface TemplateListFilter {
  systemTemplate?: boolean;
  adminOnly?: boolean;
  /** Only templates a non-admin may use: not disabled and (unless `withAdminOnly`) not admin-only. */
  usableByNonAdmin?: boolean;
  /** With `usableByNonAdmin`: keep admin-only templates (a power_logger uses them). */
  withAdminOnly?: boolean;
}

export class EventTemplatesRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async findById(id: string): Promise<EventTemplateRecord | undefined> {
    const row = await this.db.selectFrom('event_templates').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Matching templates in id order; the service sorts and pages (template lists are small). */
  async list(filter: TemplateListFilter): Promise<EventTemplateRecord[]> {
    let q = this.db.selectFrom('event_templates').selectAll();
    if (filter.systemTemplate !== undefined) q = q.where('system_template', '=', filter.systemTemplate ? 1 : 0);
    if (filter.adminOnly !== undefined) q = q.where('admin_only', '=', filter.adminOnly ? 1 : 0);
    if (filter.usableByNonAdmin) q = q.where('disabled', '=', 0);
    if (filter.usableByNonAdmin && !filter.withAdminOnly) q = q.where('admin_only', '=', 0);
    return (await q.orderBy('id', 'asc').execute()).map(fromRow);
  }

  async insert(template: EventTemplateRecord): Promise<void> {
    await this.db.insertInto('event_templates').values(toRow(template)).execute();
  }

  /** Writes every field of the record (the service merges the patch first). */
  async replace(template: EventTemplateRecord): Promise<void> {
    const { id, ...row } = toRow(template);
    await this.db.updateTable('event_templates').set(row).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<number> {
    const result = await this.db.deleteFrom('event_templates').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteMany(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db.deleteFrom('event_templates').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
