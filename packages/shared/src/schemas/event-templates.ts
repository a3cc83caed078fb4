import { z } from 'zod/mini';
import { buttonVariants, isButtonColor } from '../rules/button-color.js';
import { objectIdSchema } from './common.js';

/**
 * The option types a template may use: Sealog's five (docs/wire.md#event-templates) and `taxon`, a
 * pick from the ship's WoRMS taxonomy stored in ordinary event options (docs/taxa.md#a-taxon-in-an-event).
 */
export const eventOptionTypes = ['static text', 'text', 'dropdown', 'checkboxes', 'radio buttons', 'taxon'] as const;
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

/** `show if` / `hide if` (Sealog 2.4.2): an option shown or hidden by another option's value. */
export const optionVisibilityModes = ['show if', 'hide if'] as const;
export type OptionVisibilityMode = (typeof optionVisibilityModes)[number];

/**
 * An option's visibility rule: shown (or hidden) while the named option's value, or one of its
 * checked values, is in the list. The rule itself lives in rules/event-options.ts.
 */
export const eventOptionVisibilitySchema = z.strictObject({
  show_hide: z.enum(optionVisibilityModes),
  event_option_name: z.string().check(z.minLength(1)),
  event_option_values: z.array(z.string()),
});
export type EventOptionVisibility = z.infer<typeof eventOptionVisibilitySchema>;

/** The refusals of a visibility rule, shared by the API and the template form. */
export const optionVisibilityMessages = {
  missingOption: 'must name another option of this template',
  ownOption: 'must not name its own option',
  noValues: 'must contain at least 1 items',
} as const;

/** A taxon the template offers as a button (the cruise's common taxa). */
export const commonTaxonSchema = z.object({
  aphia_id: z.int().check(z.positive(), z.lte(2147483647)),
  name: z.string().check(z.minLength(1), z.maxLength(300)),
});
export type CommonTaxon = z.infer<typeof commonTaxonSchema>;

/**
 * What a `taxon` template option adds to Sealog's option fields. `quantity` `count` asks for an
 * integer; `abundance` asks for one of the option's `event_option_values` (the bins, `Few (<10)`).
 */
export const taxonOptionSettingsSchema = z.object({
  quantity: z.enum(['count', 'abundance', 'none']),
  common_taxa: z.optional(z.array(commonTaxonSchema).check(z.maxLength(60))),
});
export type TaxonOptionSettings = z.infer<typeof taxonOptionSettingsSchema>;

export const eventTemplateOptionSchema = z.strictObject({
  event_option_name: z.string().check(z.minLength(1)),
  event_option_type: z.enum(eventOptionTypes),
  event_option_default_value: z.optional(z.string()),
  event_option_values: z.array(z.string()),
  event_option_allow_freeform: z.boolean(),
  event_option_required: z.boolean(),
  event_option_visibility: z.optional(eventOptionVisibilitySchema),
  /** A `taxon` option's settings (docs/taxa.md#the-template-option); absent on other types. */
  event_option_taxon: z.optional(taxonOptionSettingsSchema),
});
export type EventTemplateOption = z.infer<typeof eventTemplateOptionSchema>;

/** A button colour: CSS hex, `#rgb` or `#rrggbb` (Sealog 2.4.5), or a Bootstrap variant name (Sealog 2.4.17). */
export const buttonColorSchema = z.string().check(
  z.refine(isButtonColor, {
    message: `must be a CSS hex colour like #1a2b3c or one of ${buttonVariants.join(', ')}`,
  }),
);

/**
 * The data rules every stored template keeps, whoever writes it (form, import, script): without
 * them the logging console cannot build a valid event. The form adds its own presentation rules
 * (rules/event-template-form.ts).
 */
export const eventTemplateOptionsSchema = z.array(eventTemplateOptionSchema).check(
  z.superRefine((options, ctx) => {
    const seen = new Set<string>();
    const keys = options.map((o) => optionNameKey(o.event_option_name));
    options.forEach((option, i) => {
      const key = keys[i]!;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'event_option_name'], message: 'must be unique' });
      seen.add(key);

      const rule = option.event_option_visibility;
      if (rule) {
        const target = optionNameKey(rule.event_option_name);
        const at = (field: string) => [i, 'event_option_visibility', field];
        if (target === key)
          ctx.addIssue({ code: 'custom', path: at('event_option_name'), message: optionVisibilityMessages.ownOption });
        else if (!keys.includes(target))
          ctx.addIssue({
            code: 'custom',
            path: at('event_option_name'),
            message: optionVisibilityMessages.missingOption,
          });
        if (rule.event_option_values.length === 0)
          ctx.addIssue({ code: 'custom', path: at('event_option_values'), message: optionVisibilityMessages.noValues });
      }

      const type = option.event_option_type;
      const values = option.event_option_values;
      const fallback = option.event_option_default_value ?? '';
      if (option.event_option_taxon !== undefined && type !== 'taxon')
        ctx.addIssue({ code: 'custom', path: [i, 'event_option_taxon'], message: 'is allowed on a taxon option only' });
      if (type === 'taxon') {
        // The pick is stored under the option's name and four names derived from it.
        const derived = ['aphia_id', 'qualifier', 'count', 'abundance'].map((suffix) => `${key}_${suffix}`);
        if (keys.some((k) => derived.includes(k)))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'event_option_name'],
            message: `must not share a name with another option (a taxon option also writes ${derived.join(', ')})`,
          });
        if (option.event_option_taxon?.quantity === 'abundance' && values.length === 0)
          ctx.addIssue({
            code: 'custom',
            path: [i, 'event_option_values'],
            message: 'must list the abundance bins for a taxon option that asks for abundance',
          });
        return;
      }
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
  }),
);

/** A template as the API returns it. `disabled` is present for admins only. */
export const eventTemplateSchema = z.object({
  id: z.string(),
  event_name: z.string(),
  event_value: z.string(),
  event_free_text_required: z.boolean(),
  system_template: z.boolean(),
  template_categories: z.array(z.string()),
  template_style: z.optional(z.record(z.string(), z.unknown())),
  event_button_color: z.optional(z.string()),
  disabled: z.optional(z.boolean()),
  admin_only: z.boolean(),
  event_options: z.array(eventTemplateOptionSchema),
});
export type EventTemplate = z.infer<typeof eventTemplateSchema>;

const templateFields = {
  event_name: z.string().check(z.minLength(1)),
  event_value: z.string().check(z.minLength(1)),
  event_free_text_required: z.boolean(),
  system_template: z.boolean(),
  template_categories: z.array(z.string()),
  template_style: z.record(z.string(), z.unknown()),
  event_button_color: buttonColorSchema,
  disabled: z.boolean(),
  admin_only: z.boolean(),
  event_options: eventTemplateOptionsSchema,
};

/** POST /event_templates (docs/wire.md#event-templates). A client id is allowed (import keeps ids). */
export const createEventTemplateSchema = z.strictObject({
  id: z.optional(objectIdSchema),
  event_name: templateFields.event_name,
  event_value: templateFields.event_value,
  event_free_text_required: templateFields.event_free_text_required,
  system_template: templateFields.system_template,
  template_categories: z.optional(templateFields.template_categories),
  template_style: z.optional(templateFields.template_style),
  event_button_color: z.optional(templateFields.event_button_color),
  disabled: z.optional(templateFields.disabled),
  admin_only: z.optional(templateFields.admin_only),
  event_options: z.optional(templateFields.event_options),
});
export type CreateEventTemplate = z.infer<typeof createEventTemplateSchema>;

/** PATCH /event_templates/{id}: any field but the id; `event_options` replaces the whole list. */
export const updateEventTemplateSchema = z
  .strictObject({
    event_name: z.optional(templateFields.event_name),
    event_value: z.optional(templateFields.event_value),
    event_free_text_required: z.optional(templateFields.event_free_text_required),
    system_template: z.optional(templateFields.system_template),
    template_categories: z.optional(templateFields.template_categories),
    template_style: z.optional(templateFields.template_style),
    /** Null clears the colour. */
    event_button_color: z.optional(z.nullable(templateFields.event_button_color)),
    disabled: z.optional(templateFields.disabled),
    admin_only: z.optional(templateFields.admin_only),
    event_options: z.optional(templateFields.event_options),
  })
  .check(z.refine((v) => Object.keys(v).length > 0, { message: 'must have at least 1 key' }));
export type UpdateEventTemplate = z.infer<typeof updateEventTemplateSchema>;

export const eventTemplateSortValues = ['event_name'] as const;
