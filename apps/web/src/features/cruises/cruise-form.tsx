import { useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  cruiseCreateBody,
  cruiseFormSchemaFor,
  cruiseSummaryText,
  cruiseToForm,
  cruiseUpdateBody,
  emptyCruiseForm,
  isNonStandardId,
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
}

/**
 * The add/update form of /cruises (docs/screens.md#cruise-form). A cruise
 * manager edits only the active cruise, with the ID, vessel, PI, dates and ports disabled.
 */
export function CruiseForm({ cruise, isAdmin, onSaved }: CruiseFormProps) {
  const names = useEntityNames();
  const settings = useSettings();
  const W = names.Cruise;
  const { form, onSubmit, foot } = useRecordForm<CruiseFormValues>({
    word: W,
    editing: !!cruise,
    initial: () => (cruise ? cruiseToForm(cruise) : emptyCruiseForm(settings.defaultVessel)),
    blank: () => emptyCruiseForm(settings.defaultVessel),
    resolver: zodResolver(cruiseFormSchemaFor({ locked: !isAdmin })),
    create: (values) => createRecord('cruise', cruiseCreateBody(values)),
    update: (values, uploads) =>
      updateRecord('cruise', cruise!.id, cruiseUpdateBody(values, cruise!, { isAdmin, uploads })),
    onSaved,
  });
  const id = useWatch({ control: form.control, name: 'cruise_id' });
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
