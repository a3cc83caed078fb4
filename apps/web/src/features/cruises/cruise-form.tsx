import { Alert } from 'react-bootstrap';
import { useWatch } from '../../lib/form';
import {
  cruiseCreateBody,
  cruiseFormSchemaFor,
  cruiseSummaryText,
  cruiseToForm,
  cruiseUpdateBody,
  emptyCruiseForm,
  formatIsoDate,
  isNonStandardId,
  parseUtcInput,
  recordFormMessages,
  type Cruise,
  type CruiseFormValues,
} from '@bathylog/shared';
import { createRecord, updateRecord } from '../../api/records';
import { FormCard, FormFields, recordFields, useRecordForm, type FieldSpec } from '../../components/record-form';
import { useEntityNames, useSettings } from '../../lib/settings';
import { CopyButton } from '../../domain/records/components/copy-button';
import { RecordFormFoot } from '../../domain/records/components/record-form-foot';
import { ArchiveSettings } from '../../domain/records/components/archive-settings';

export interface CruiseFormProps {
  /** The cruise being edited; null = add mode. */
  cruise: Cruise | null;
  isAdmin: boolean;
  onSaved: () => Promise<unknown>;
  /** The other cruises, to warn when the dates typed overlap theirs (the admin's screen has them). */
  others?: readonly Cruise[];
}

/**
 * The cruises whose dates share a day with the typed range (start and stop as the form holds
 * them; a date alone covers the whole day). Overlapping cruises are allowed (a transit and a
 * science leg) but make "the cruise active now" ambiguous for cruise managers.
 */
export function overlappingCruises(
  start: string,
  stop: string,
  others: readonly Cruise[],
  self: string | null,
): Cruise[] {
  const from = parseUtcInput(start, 'start');
  const to = parseUtcInput(stop, 'end');
  if (from === null || to === null || to < from) return [];
  return others.filter((c) => c.id !== self && Date.parse(c.start_ts) <= to && Date.parse(c.stop_ts) >= from);
}

/**
 * The add/update form of /cruises (docs/screens.md#cruise-form). A cruise
 * manager edits only the active cruise, with the ID, vessel, PI, dates and ports disabled.
 */
export function CruiseForm({ cruise, isAdmin, onSaved, others = [] }: CruiseFormProps) {
  const names = useEntityNames();
  const settings = useSettings();
  const W = names.Cruise;
  const { form, onSubmit, foot } = useRecordForm<CruiseFormValues>({
    word: W,
    editing: !!cruise,
    initial: () => (cruise ? cruiseToForm(cruise) : emptyCruiseForm(settings.defaultVessel)),
    blank: () => emptyCruiseForm(settings.defaultVessel),
    schema: cruiseFormSchemaFor({ locked: !isAdmin }),
    create: (values) => createRecord('cruise', cruiseCreateBody(values)),
    update: (values, uploads) =>
      updateRecord('cruise', cruise!.id, cruiseUpdateBody(values, cruise!, { isAdmin, uploads })),
    onSaved,
  });
  const id = useWatch({ control: form.control, name: 'cruise_id' });
  const start = useWatch({ control: form.control, name: 'start_ts' });
  const stop = useWatch({ control: form.control, name: 'stop_ts' });
  const overlaps = overlappingCruises(start ?? '', stop ?? '', others, cruise?.id ?? null);
  const warning = isNonStandardId(id ?? '', settings.cruiseIdRegex) ? recordFormMessages.nonStandardId : undefined;
  const specs: FieldSpec<CruiseFormValues>[] = [
    recordFields.id('cruise_id', `${W} ID`, settings.cruiseIdPlaceholder ?? 'i.e. CS2001', warning),
    { name: 'cruise_name', label: `${W} Name`, placeholder: 'i.e. Lost City 2018', half: true },
    {
      name: 'cruise_vessel',
      label: 'Vessel Name',
      required: true,
      placeholder: 'i.e. R/V Discovery',
      lockable: true,
      half: true,
    },
    {
      name: 'cruise_pi',
      label: 'Primary Investigator',
      required: true,
      placeholder: 'i.e. Dr. Susan Lang',
      lockable: true,
      half: true,
    },
    { name: 'cruise_location', label: `${W} Location`, placeholder: 'i.e. Lost City, Mid Atlantic Ridge' },
    {
      name: 'cruise_description',
      label: `${W} Description`,
      rows: 8,
      placeholder: `i.e. A brief description of the ${names.cruise}`,
    },
    ...recordFields.dates<CruiseFormValues>('Date', 'YYYY-MM-DD'),
    {
      name: 'cruise_departure_location',
      label: 'Departure Port',
      required: true,
      placeholder: 'i.e. Norfolk, VA',
      lockable: true,
      half: true,
    },
    {
      name: 'cruise_arrival_location',
      label: 'Arrival Port',
      required: true,
      placeholder: "i.e. St. George's, Bermuda",
      lockable: true,
      half: true,
    },
    {
      name: 'cruise_participants',
      label: 'Participants, comma delimited',
      rows: 2,
      placeholder: 'i.e. Dave Butterfield,Sharon Walker',
    },
    recordFields.tags('cruise_tags', W),
  ];

  return (
    <FormCard
      title={cruise ? `Update ${W}` : `Add ${W}`}
      tools={
        cruise && (
          <CopyButton text={() => cruiseSummaryText(cruise, names)} label={`Copy ${cruise.cruise_id} to clipboard`} />
        )
      }
      onSubmit={onSubmit}
    >
      <FormFields
        specs={specs.map((spec) => ({ ...spec, autoComplete: 'off' }))}
        register={form.register}
        errors={form.formState.errors}
        idPrefix="cruise-form"
        locked={!isAdmin}
      />
      {overlaps.length > 0 && (
        <Alert variant="warning" className="small py-2" data-testid="cruise-overlap">
          These dates overlap{' '}
          {overlaps
            .map((c) => `${c.cruise_id} (${formatIsoDate(c.start_ts)} → ${formatIsoDate(c.stop_ts)})`)
            .join(', ')}
          . On the days both cover, {names.cruise} managers choose which {names.cruise} they manage.
        </Alert>
      )}
      <RecordFormFoot
        kind="cruise"
        record={cruise ? { id: cruise.id, files: cruise.cruise_additional_meta.cruise_files } : null}
        title={W}
        {...foot}
      />
      {/* Publishing is admin-only (docs/public-archive.md#who-may-publish). */}
      {cruise && isAdmin && (
        <ArchiveSettings
          key={cruise.id}
          kind="cruise"
          id={cruise.id}
          isPublic={cruise.cruise_public}
          embargoUntil={cruise.cruise_embargo_until}
          onSaved={onSaved}
        />
      )}
    </FormCard>
  );
}
