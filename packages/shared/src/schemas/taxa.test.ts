import { describe, expect, it } from 'vitest';
import {
  buildEventOptionsUpdate,
  initialEventOptionsValues,
  taxonFieldValue,
  validateEventOptions,
} from '../rules/event-options.js';
import { parseCommonTaxa, templateFromForm, templateToForm } from '../rules/event-template-form.js';
import { eventTemplateOptionsSchema, type EventTemplateOption } from './event-templates.js';
import { loggedTaxa, taxonEventOptions, taxonSearchKey } from './taxa.js';

const taxonOption = (extra: Partial<EventTemplateOption> = {}): EventTemplateOption => ({
  event_option_name: 'Taxon Seen',
  event_option_type: 'taxon',
  event_option_values: [],
  event_option_allow_freeform: false,
  event_option_required: true,
  event_option_taxon: { quantity: 'count' },
  ...extra,
});
const template = (option: EventTemplateOption) => ({ event_free_text_required: false, event_options: [option] });
const ts = Date.UTC(2023, 2, 14, 23, 0);

/** The contract of a taxon in an event (docs/taxa.md#a-taxon-in-an-event), as the modal writes it. */
describe('taxon options', () => {
  it('a pick becomes the contract options under the normalised name', () => {
    const values = initialEventOptionsValues(template(taxonOption()), ts);
    values.options[0] = taxonFieldValue({ name: 'Ophiuroidea', aphia_id: 123084, qualifier: 'cf.', count: ' 3 ' });
    expect(validateEventOptions(template(taxonOption()), values)).toBeNull();
    expect(buildEventOptionsUpdate(template(taxonOption()), values, ts).event_options).toEqual([
      { event_option_name: 'taxon_seen', event_option_value: 'Ophiuroidea' },
      { event_option_name: 'taxon_seen_aphia_id', event_option_value: '123084' },
      { event_option_name: 'taxon_seen_qualifier', event_option_value: 'cf.' },
      { event_option_name: 'taxon_seen_count', event_option_value: '3' },
    ]);
  });

  it('refuses a missing pick when required, a count that is not a whole number, a bin not offered', () => {
    const values = initialEventOptionsValues(template(taxonOption()), ts);
    expect(validateEventOptions(template(taxonOption()), values)?.options[0]).toBe('Required');
    values.options[0] = taxonFieldValue({ name: 'Hydrozoa', aphia_id: 1337, qualifier: '', count: '2.5' });
    expect(validateEventOptions(template(taxonOption()), values)?.options[0]).toBe('Count must be a whole number');
    const bins = taxonOption({
      event_option_values: ['Few (<10)', 'Many'],
      event_option_taxon: { quantity: 'abundance' },
    });
    values.options[0] = taxonFieldValue({ name: 'Hydrozoa', aphia_id: 1337, qualifier: '', abundance: 'Lots' });
    expect(validateEventOptions(template(bins), values)?.options[0]).toBe('Choose one of the abundance bins');
    values.options[0] = taxonFieldValue({ name: 'Hydrozoa', aphia_id: 1337, qualifier: 'sp.', abundance: 'Few (<10)' });
    expect(buildEventOptionsUpdate(template(bins), values, ts).event_options.at(-1)).toEqual({
      event_option_name: 'taxon_seen_abundance',
      event_option_value: 'Few (<10)',
    });
  });

  it('reads the taxa back from event options, ignoring what breaks the contract', () => {
    const options = [
      ...taxonEventOptions('Taxon', { name: 'Adeorbidae', aphia_id: 125, qualifier: 'aff.', count: 1 }),
      { event_option_name: 'other', event_option_value: 'x' },
      { event_option_name: 'bad', event_option_value: 'Name' },
      { event_option_name: 'bad_aphia_id', event_option_value: '12a' },
    ];
    expect(loggedTaxa(options)).toEqual([
      { option: 'taxon', name: 'Adeorbidae', aphia_id: 125, qualifier: 'aff.', count: 1 },
    ]);
  });

  it('template rules: bins for abundance, settings on taxon options only, no clash with derived names', () => {
    const issues = (options: EventTemplateOption[]) =>
      eventTemplateOptionsSchema.safeParse(options).error?.issues.map((i) => `${i.path.join('.')} ${i.message}`) ?? [];
    expect(issues([taxonOption()])).toEqual([]);
    expect(issues([taxonOption({ event_option_taxon: { quantity: 'abundance' } })])[0]).toMatch(
      /^0\.event_option_values must list the abundance bins/,
    );
    expect(
      issues([
        taxonOption(),
        {
          ...taxonOption(),
          event_option_type: 'text',
          event_option_name: 'taxon_seen_count',
          event_option_taxon: undefined,
        },
      ])[0],
    ).toMatch(/^0\.event_option_name must not share a name/);
    expect(issues([{ ...taxonOption(), event_option_type: 'text' }])[0]).toMatch(
      /event_option_taxon is allowed on a taxon option only/,
    );
  });

  it('the form round-trips common taxa and refuses entries that are not Name (AphiaID)', () => {
    const option = taxonOption({
      event_option_taxon: { quantity: 'count', common_taxa: [{ aphia_id: 123084, name: 'Ophiuroidea' }] },
    });
    const form = templateToForm({ event_options: [option] });
    expect(form.event_options[0]!.taxon_common).toBe('Ophiuroidea (123084)');
    expect(templateFromForm(form).event_options![0]!.event_option_taxon).toEqual(option.event_option_taxon);
    expect(parseCommonTaxa('Ophiuroidea 123084')).toBeNull();
    expect(parseCommonTaxa('')).toEqual([]);
  });

  it('folds names for search', () => {
    expect(taxonSearchKey('  Bauchfüßer  Große ')).toBe('bauchfußer große');
  });
});
