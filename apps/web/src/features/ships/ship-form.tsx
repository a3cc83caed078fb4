import { Form } from 'react-bootstrap';
import { useForm } from '../../lib/form';
import {
  emptyShipForm,
  shipCreateBody,
  shipFormSchema,
  shipToForm,
  shipUpdateBody,
  type Ship,
  type ShipFormValues,
} from '@bathylog/shared';
import { createShip, updateShip } from '../../api/ships';
import { TextField } from '../../components/form-field';
import { FormActions, useFormAlerts } from '../../components/form-actions';
import { FormCard } from '../../components/record-form';

export interface ShipFormProps {
  /** The ship being edited; null = add mode. Mount with `key={ship?.id ?? 'new'}`. */
  ship: Ship | null;
  onSaved: () => Promise<unknown>;
}

/**
 * Add Ship / Update Ship (docs/screens.md#ship-to-shore): name, address, the ship's device key
 * (a password field, never shown again; blank on edit keeps the stored one), the bandwidth cap in
 * kbit/s (blank: none) and the Enabled switch (off: the shore stops contacting the ship).
 */
export function ShipForm({ ship, onSaved }: ShipFormProps) {
  const alerts = useFormAlerts();
  const initial = ship ? shipToForm(ship) : emptyShipForm();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<ShipFormValues>({ schema: shipFormSchema(!!ship, ship?.url), defaultValues: initial });

  const onSubmit = alerts.submit(
    handleSubmit((form) =>
      alerts.save(async () => {
        if (ship) {
          await updateShip(ship.id, shipUpdateBody(form));
          alerts.setMessage('Ship updated');
          reset({ ...form, key: '' });
        } else {
          await createShip(shipCreateBody(form), form.enabled);
          alerts.setMessage('Ship added');
          reset(emptyShipForm());
        }
        await onSaved();
      }),
    ),
  );

  const idPrefix = 'ship-form';
  return (
    <FormCard title={ship ? 'Update Ship' : 'Add Ship'} onSubmit={onSubmit}>
      <TextField
        label="Name"
        required
        idPrefix={idPrefix}
        registration={register('name')}
        error={errors.name}
        placeholder="e.g. R/V Falkor (too)"
      />
      <TextField
        label="Address"
        required
        idPrefix={idPrefix}
        registration={register('url')}
        error={errors.url}
        placeholder="https://ship.example.org"
        autoComplete="off"
      />
      <TextField
        label={ship ? 'Device Key (blank: keep the current one)' : 'Device Key'}
        required={!ship}
        type="password"
        idPrefix={idPrefix}
        registration={register('key')}
        error={errors.key}
        autoComplete="new-password"
      />
      <TextField
        label="Bandwidth Cap (kbit/s, blank: none)"
        idPrefix={idPrefix}
        registration={register('bandwidth_kbps')}
        error={errors.bandwidth_kbps}
        placeholder="e.g. 256"
      />
      <Form.Check type="switch" id={`${idPrefix}-enabled`} label="Enabled" className="mb-3" {...register('enabled')} />
      <FormActions
        {...alerts}
        resetLabel="Reset Values"
        dirty={isDirty}
        submitting={isSubmitting}
        onReset={() => {
          reset(initial);
          alerts.clear();
        }}
        submitLabel={ship ? 'Update' : 'Add'}
        editing={!!ship}
      />
    </FormCard>
  );
}
