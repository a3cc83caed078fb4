import { z } from 'zod';
import { objectIdSchema } from './common.js';

/** The five option types a template may use (seed 000 §3). */
export const eventOptionTypes = ['static text', 'text', 'dropdown', 'checkboxes', 'radio buttons'] as const;
export type EventOptionType = (typeof eventOptionTypes)[number];

/** Option types whose value is chosen from `event_option_values`. */
export const choiceOptionTypes: readonly EventOptionType[] = ['dropdown', 'checkboxes', 'radio buttons'];

/**
 * Events normalise option names (lower case, whitespace runs → `_`), so two template options whose
 * names normalise alike would write the same event option: that is what "unique" means here.
 */
export function optionNameKey(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '_');
}

/** A checkbox default lists its values separated by commas (`"EM124,EM712"`). */
export function splitCheckboxDefault(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export const eventTemplateOptionSchema = z.strictObject({
  event_option_name: z.string().min(1),
  event_option_type: z.enum(eventOptionTypes),
  event_option_default_value: z.string().optional(),
  event_option_values: z.array(z.string()),
  event_option_allow_freeform: z.boolean(),
  event_option_required: z.boolean(),
});
export type EventTemplateOption = z.infer<typeof eventTemplateOptionSchema>;

/**
 * The data rules every stored template keeps, whoever writes it (form, import, script): without
 * them the logging console cannot build a valid event. The form adds its own presentation rules
 * (rules/event-template-form.ts).
 */
export const eventTemplateOptionsSchema = z.array(eventTemplateOptionSchema).superRefine((options, ctx) => {
  const seen = new Set<string>();
  options.forEach((option, i) => {
    const key = optionNameKey(option.event_option_name);
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'event_option_name'], message: 'must be unique' });
    seen.add(key);

    const type = option.event_option_type;
    const values = option.event_option_values;
    const fallback = option.event_option_default_value ?? '';
    if (choiceOptionTypes.includes(type) && values.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'event_option_values'],
        message: `must contain at least 1 items for a ${type} option`,
      });
      return;
    }
    if (type === 'static text' && fallback.trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'event_option_default_value'],
        message: 'is required for a static text option',
      });
    }
    if ((type === 'dropdown' || type === 'radio buttons') && fallback !== '' && !values.includes(fallback)) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'event_option_default_value'],
        message: 'must be one of the option values',
      });
    }
    if (type === 'checkboxes' && fallback !== '' && !values.includes(fallback)) {
      if (!splitCheckboxDefault(fallback).every((v) => values.includes(v))) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'event_option_default_value'],
          message: 'must list only option values',
        });
      }
    }
  });
});

/** A template as the API returns it. `disabled` is present for admins only. */
export const eventTemplateSchema = z.object({
  id: z.string(),
  event_name: z.string(),
  event_value: z.string(),
  event_free_text_required: z.boolean(),
  system_template: z.boolean(),
  template_categories: z.array(z.string()),
  template_style: z.record(z.string(), z.unknown()).optional(),
  disabled: z.boolean().optional(),
  admin_only: z.boolean(),
  event_options: z.array(eventTemplateOptionSchema),
});
export type EventTemplate = z.infer<typeof eventTemplateSchema>;

const templateFields = {
  event_name: z.string().min(1),
  event_value: z.string().min(1),
  event_free_text_required: z.boolean(),
  system_template: z.boolean(),
  template_categories: z.array(z.string()),
  template_style: z.record(z.string(), z.unknown()),
  disabled: z.boolean(),
  admin_only: z.boolean(),
  event_options: eventTemplateOptionsSchema,
};

/** POST /event_templates (reference §5.9). A client id is allowed (import keeps ids). */
export const createEventTemplateSchema = z.strictObject({
  id: objectIdSchema.optional(),
  event_name: templateFields.event_name,
  event_value: templateFields.event_value,
  event_free_text_required: templateFields.event_free_text_required,
  system_template: templateFields.system_template,
  template_categories: templateFields.template_categories.optional(),
  template_style: templateFields.template_style.optional(),
  disabled: templateFields.disabled.optional(),
  admin_only: templateFields.admin_only.optional(),
  event_options: templateFields.event_options.optional(),
});
export type CreateEventTemplate = z.infer<typeof createEventTemplateSchema>;

/** PATCH /event_templates/{id}: any field but the id; `event_options` replaces the whole list. */
export const updateEventTemplateSchema = z
  .strictObject({
    event_name: templateFields.event_name.optional(),
    event_value: templateFields.event_value.optional(),
    event_free_text_required: templateFields.event_free_text_required.optional(),
    system_template: templateFields.system_template.optional(),
    template_categories: templateFields.template_categories.optional(),
    template_style: templateFields.template_style.optional(),
    disabled: templateFields.disabled.optional(),
    admin_only: templateFields.admin_only.optional(),
    event_options: templateFields.event_options.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' });
export type UpdateEventTemplate = z.infer<typeof updateEventTemplateSchema>;

export const eventTemplateSortValues = ['event_name'] as const;
