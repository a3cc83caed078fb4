import type { ReactNode } from 'react';
import { Button } from 'react-bootstrap';
import { useWatch } from '../../lib/form';
import {
  emptyLoweringForm,
  isNonStandardId,
  loweringCreateBody,
  loweringFormSchemaFor,
  loweringSummaryText,
  loweringToForm,
  loweringUpdateBody,
  recordFormMessages,
  type Lowering,
  type LoweringFormValues,
} from '@bathylog/shared';
import { createRecord, updateRecord } from '../../api/records';
import { FormCard, FormFields, recordFields, useRecordForm, type FieldSpec } from '../../components/record-form';
import { useEntityNames, useSettings } from '../../lib/settings';
import { CopyButton } from '../../domain/records/components/copy-button';
import { RecordFormFoot } from '../../domain/records/components/record-form-foot';
import { ArchiveSettings } from '../../domain/records/components/archive-settings';

export interface LoweringFormProps {
  /** The lowering being edited; null = add mode. */
  lowering: Lowering | null;
  isAdmin: boolean;
  /** After a successful create or update: refresh the lists. */
  onSaved: () => Promise<unknown>;
  /** Update mode only: opens the milestones/stats editor (the orange Milestones button). */
  milestonesButton?: ReactNode;
}

/**
 * The add/update form on the right of /lowerings (docs/screens.md#lowering-form).
 * Mount it with `key={lowering?.id ?? 'new'}` so choosing another lowering starts afresh.
 */
export function LoweringForm({ lowering, isAdmin, onSaved, milestonesButton }: LoweringFormProps) {
  const names = useEntityNames();
  const settings = useSettings();
  const W = names.Lowering;
  const locked = !!lowering && !isAdmin;
  const { form, onSubmit, foot } = useRecordForm<LoweringFormValues>({
    word: W,
    editing: !!lowering,
    initial: () => (lowering ? loweringToForm(lowering) : emptyLoweringForm()),
    blank: emptyLoweringForm,
    schema: loweringFormSchemaFor({ locked }),
    create: (values) => createRecord('lowering', loweringCreateBody(values)),
    update: (values, uploads) =>
      updateRecord('lowering', lowering!.id, loweringUpdateBody(values, lowering!, { isAdmin, uploads })),
    onSaved,
  });
  const id = useWatch({ control: form.control, name: 'lowering_id' });
  const warning = isNonStandardId(id ?? '', settings.loweringIdRegex) ? recordFormMessages.nonStandardId : undefined;
  // Browser suggestions are off in the one-line fields.
  const off = { autoComplete: 'off' };
  const specs: FieldSpec<LoweringFormValues>[] = [
    {
      ...recordFields.id('lowering_id', `${W} ID`, settings.loweringIdPlaceholder ?? 'i.e. ROV-0042', warning),
      ...off,
    },
    { name: 'lowering_name', label: `${W} Name`, placeholder: 'i.e. Kelvin Seamount survey', half: true, ...off },
    { name: 'lowering_location', label: `${W} Location`, placeholder: 'i.e. Kelvin Seamount', half: true, ...off },
    {
      name: 'lowering_description',
      label: `${W} Description`,
      rows: 8,
      placeholder: `i.e. A brief description of the ${names.lowering}`,
    },
    ...recordFields.dates<LoweringFormValues>('Date/Time', 'YYYY-MM-DD HH:mm', off),
    recordFields.tags('lowering_tags', W),
  ];

  return (
    <FormCard
      title={lowering ? `Update ${W}` : `Add ${W}`}
      tools={
        lowering && (
          <CopyButton
            text={() => loweringSummaryText(lowering, names, settings.milestones)}
            label={`Copy ${lowering.lowering_id} to clipboard`}
          />
        )
      }
      onSubmit={onSubmit}
    >
      <FormFields
        specs={specs}
        register={form.register}
        errors={form.formState.errors}
        idPrefix="lowering-form"
        locked={locked}
      />
      <RecordFormFoot
        kind="lowering"
        record={lowering ? { id: lowering.id, files: lowering.lowering_additional_meta.lowering_files } : null}
        title={W}
        {...foot}
        leading={lowering ? milestonesButton : undefined}
      />
      {/* Publishing is admin-only (docs/public-archive.md#who-may-publish). */}
      {lowering && isAdmin && (
        <ArchiveSettings
          key={lowering.id}
          kind="lowering"
          id={lowering.id}
          isPublic={lowering.lowering_public}
          embargoUntil={lowering.lowering_embargo_until}
          onSaved={onSaved}
        />
      )}
    </FormCard>
  );
}

/** The orange Milestones button of the form's foot. */
export function MilestonesButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="warning" size="sm" type="button" onClick={onClick} className="me-auto text-nowrap">
      Milestones
    </Button>
  );
}
