import { z } from 'zod/mini';
import {
  buttonColorSchema,
  choiceOptionTypes,
  eventOptionTypes,
  optionNameKey,
  optionVisibilityModes,
  type OptionVisibilityMode,
  splitCheckboxDefault,
  type CreateEventTemplate,
  type EventOptionType,
  type EventTemplate,
} from '../schemas/event-templates.js';

/** The event-template form's messages, word for word as the Sealog client shows them. */
export const templateFormMessages = {
  required: 'Required',
  nameTooLong: 'Must be 32 characters or less',
  invalidCsv: 'Invalid csv list',
  optionNameUnique: 'Option name must be unique',
  valueNotInList: 'Value is not in options list',
  valuesNotInList: 'Value(s) is/are not in options list',
  invalidColor: 'Must be a button style or a hex colour like #1a2b3c',
  unknownOption: 'Must be another option of this template',
  invalidCommonTaxa: 'List common taxa as Name (AphiaID), separated by commas',
} as const;

/**
 * The button label limit of the form (a longer label does not fit its button). The server accepts
 * longer names from imports.
 */
export const templateNameMaxLength = 32;

/** Splits a comma list: items trimmed, blanks dropped. */
export function splitCsvList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A comma list is valid when empty, or when no item between commas is blank (`a,,b`, `a,` are not)
 * and no item has an unbalanced double quote (`"deep sea`): a quote left open is a typing slip that
 * would otherwise be stored as part of the word.
 */
export function isValidCsvList(text: string): boolean {
  if (text.trim() === '') return true;
  return text.split(',').every((s) => s.trim() !== '' && (s.match(/"/g) ?? []).length % 2 === 0);
}

/** One option as the form edits it: the values list is the comma text of the textarea. */
export interface EventTemplateOptionFormValues {
  event_option_name: string;
  event_option_type: EventOptionType | '';
  event_option_values: string;
  event_option_default_value: string;
  event_option_required: boolean;
  event_option_allow_freeform: boolean;
  /** '' = always shown; otherwise the rule of `event_option_visibility`. */
  visibility_mode: OptionVisibilityMode | '';
  visibility_option: string;
  /** Comma text of the rule's values. */
  visibility_values: string;
  /** A taxon option: count, an abundance bin (the values list holds the bins), or no quantity. */
  taxon_quantity: 'count' | 'abundance' | 'none';
  /** A taxon option's common taxa buttons, as `Name (AphiaID)` entries separated by commas. */
  taxon_common: string;
}

/** The whole form: categories are the comma text of their field. */
export interface EventTemplateFormValues {
  event_name: string;
  event_value: string;
  template_categories: string;
  event_free_text_required: boolean;
  system_template: boolean;
  admin_only: boolean;
  disabled: boolean;
  /** '' = the default button look. */
  event_button_color: string;
  event_options: EventTemplateOptionFormValues[];
}

const optionFormSchema = z.object({
  event_option_name: z.string(),
  event_option_type: z.union([z.enum(eventOptionTypes), z.literal('')]),
  event_option_values: z.string(),
  event_option_default_value: z.string(),
  event_option_required: z.boolean(),
  event_option_allow_freeform: z.boolean(),
  visibility_mode: z.union([z.enum(optionVisibilityModes), z.literal('')]),
  visibility_option: z.string(),
  visibility_values: z.string(),
  taxon_quantity: z.enum(['count', 'abundance', 'none']),
  taxon_common: z.string(),
});

/**
 * The form's rules as one zod schema, so the client's form hook (apps/web/src/lib/form.ts) puts
 * each message under its field (`event_options.2.event_option_default_value`).
 */
export const eventTemplateFormSchema = z
  .object({
    event_name: z.string(),
    event_value: z.string(),
    template_categories: z.string(),
    event_free_text_required: z.boolean(),
    system_template: z.boolean(),
    admin_only: z.boolean(),
    disabled: z.boolean(),
    event_button_color: z.string(),
    event_options: z.array(optionFormSchema),
  })
  .check(
    z.superRefine((form, ctx) => {
      const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
      if (form.event_name.trim() === '') fail(['event_name'], templateFormMessages.required);
      else if (form.event_name.length > templateNameMaxLength) fail(['event_name'], templateFormMessages.nameTooLong);
      if (form.event_value.trim() === '') fail(['event_value'], templateFormMessages.required);
      if (!isValidCsvList(form.template_categories)) fail(['template_categories'], templateFormMessages.invalidCsv);
      const color = form.event_button_color.trim();
      if (color !== '' && !buttonColorSchema.safeParse(color).success)
        fail(['event_button_color'], templateFormMessages.invalidColor);

      const seen = new Set<string>();
      const keys = form.event_options.map((o) => optionNameKey(o.event_option_name));
      form.event_options.forEach((option, i) => {
        const at = (field: keyof EventTemplateOptionFormValues) => ['event_options', i, field];
        if (option.visibility_mode !== '') {
          const target = optionNameKey(option.visibility_option);
          if (option.visibility_option.trim() === '') fail(at('visibility_option'), templateFormMessages.required);
          else if (target === keys[i] || !keys.includes(target))
            fail(at('visibility_option'), templateFormMessages.unknownOption);
          if (!isValidCsvList(option.visibility_values)) fail(at('visibility_values'), templateFormMessages.invalidCsv);
          else if (splitCsvList(option.visibility_values).length === 0)
            fail(at('visibility_values'), templateFormMessages.required);
        }
        const name = option.event_option_name.trim();
        if (name === '') fail(at('event_option_name'), templateFormMessages.required);
        else if (seen.has(optionNameKey(name))) fail(at('event_option_name'), templateFormMessages.optionNameUnique);
        if (name !== '') seen.add(optionNameKey(name));

        const type = option.event_option_type;
        if (type === '') {
          fail(at('event_option_type'), templateFormMessages.required);
          return;
        }
        const fallback = option.event_option_default_value.trim();
        if (type === 'taxon') {
          if (parseCommonTaxa(option.taxon_common) === null)
            fail(at('taxon_common'), templateFormMessages.invalidCommonTaxa);
          if (option.taxon_quantity === 'abundance' && splitCsvList(option.event_option_values).length === 0)
            fail(at('event_option_values'), templateFormMessages.required);
          return;
        }
        if (type === 'static text') {
          if (fallback === '') fail(at('event_option_default_value'), templateFormMessages.required);
          return;
        }
        if (!choiceOptionTypes.includes(type)) return;
        const values = splitCsvList(option.event_option_values);
        if (values.length === 0) {
          fail(at('event_option_values'), templateFormMessages.required);
          return;
        }
        if (fallback === '') return;
        if (type === 'checkboxes') {
          if (!splitCheckboxDefault(fallback).every((v) => values.includes(v))) {
            fail(at('event_option_default_value'), templateFormMessages.valuesNotInList);
          }
        } else if (!values.includes(fallback)) {
          fail(at('event_option_default_value'), templateFormMessages.valueNotInList);
        }
      });
    }),
  );

/** An empty option, as "+ Add Option" adds it. */
export function emptyTemplateOption(): EventTemplateOptionFormValues {
  return {
    event_option_name: '',
    event_option_type: '',
    event_option_values: '',
    event_option_default_value: '',
    event_option_required: false,
    event_option_allow_freeform: false,
    visibility_mode: '',
    visibility_option: '',
    visibility_values: '',
    taxon_quantity: 'count',
    taxon_common: '',
  };
}

/** Form values for a new template, or for editing an existing one. */
export function templateToForm(template?: Partial<EventTemplate>): EventTemplateFormValues {
  return {
    event_name: template?.event_name ?? '',
    event_value: template?.event_value ?? '',
    template_categories: (template?.template_categories ?? []).join(', '),
    event_free_text_required: template?.event_free_text_required ?? false,
    system_template: template?.system_template ?? false,
    admin_only: template?.admin_only ?? false,
    disabled: template?.disabled ?? false,
    event_button_color: template?.event_button_color ?? '',
    event_options: (template?.event_options ?? []).map((o) => ({
      event_option_name: o.event_option_name,
      event_option_type: o.event_option_type,
      event_option_values: o.event_option_values.join(', '),
      event_option_default_value: o.event_option_default_value ?? '',
      event_option_required: o.event_option_required,
      event_option_allow_freeform: o.event_option_allow_freeform,
      visibility_mode: o.event_option_visibility?.show_hide ?? '',
      visibility_option: o.event_option_visibility?.event_option_name ?? '',
      visibility_values: (o.event_option_visibility?.event_option_values ?? []).join(', '),
      taxon_quantity: o.event_option_taxon?.quantity ?? 'count',
      taxon_common: formatCommonTaxa(o.event_option_taxon?.common_taxa ?? []),
    })),
  };
}

/**
 * The request body for a submitted form: categories split, trimmed and lower-cased;
 * option values split and trimmed; admin_only forced false unless the template is a system one.
 * Static text keeps no values list; text keeps none either. An empty colour sends no colour (an
 * update then clears it: see the form).
 */
export function templateFromForm(form: EventTemplateFormValues): Omit<CreateEventTemplate, 'id'> {
  return {
    event_name: form.event_name.trim(),
    event_value: form.event_value.trim(),
    template_categories: splitCsvList(form.template_categories).map((c) => c.toLowerCase()),
    event_free_text_required: form.event_free_text_required,
    system_template: form.system_template,
    admin_only: form.system_template ? form.admin_only : false,
    disabled: form.disabled,
    ...(form.event_button_color.trim() !== '' ? { event_button_color: form.event_button_color.trim() } : {}),
    event_options: form.event_options.map((o) => {
      const type = o.event_option_type as EventOptionType;
      const taxon = type === 'taxon';
      const choice = choiceOptionTypes.includes(type) || (taxon && o.taxon_quantity === 'abundance');
      const fallback =
        type === 'checkboxes'
          ? splitCheckboxDefault(o.event_option_default_value).join(',')
          : o.event_option_default_value.trim();
      return {
        event_option_name: o.event_option_name.trim(),
        event_option_type: type,
        event_option_values: choice ? splitCsvList(o.event_option_values) : [],
        event_option_default_value: fallback,
        event_option_required: o.event_option_required,
        event_option_allow_freeform: o.event_option_allow_freeform,
        ...(taxon
          ? {
              event_option_taxon: {
                quantity: o.taxon_quantity,
                common_taxa: parseCommonTaxa(o.taxon_common) ?? [],
              },
            }
          : {}),
        ...(o.visibility_mode !== ''
          ? {
              event_option_visibility: {
                show_hide: o.visibility_mode,
                event_option_name: o.visibility_option.trim(),
                event_option_values: splitCsvList(o.visibility_values),
              },
            }
          : {}),
      };
    }),
  };
}

const commonTaxonEntry = /^(.+?)\s*\(\s*([1-9][0-9]{0,9})\s*\)$/;

/**
 * A taxon option's common taxa from the form's text, `Ophiuroidea (123084), Hydrozoa (1337)`; null
 * when an entry is not `Name (AphiaID)`.
 */
export function parseCommonTaxa(text: string): Array<{ aphia_id: number; name: string }> | null {
  const out: Array<{ aphia_id: number; name: string }> = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = commonTaxonEntry.exec(entry);
    if (!m || Number(m[2]) > 2147483647 || m[1]!.length > 300) return null;
    out.push({ name: m[1]!, aphia_id: Number(m[2]) });
  }
  return out.length > 60 ? null : out;
}

export function formatCommonTaxa(taxa: ReadonlyArray<{ aphia_id: number; name: string }>): string {
  return taxa.map((t) => `${t.name} (${t.aphia_id})`).join(', ');
}
