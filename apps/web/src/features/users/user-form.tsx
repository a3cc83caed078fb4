import { useEffect, useState } from 'react';
import { Col, Form, OverlayTrigger, Row, Tooltip } from 'react-bootstrap';
import { useForm, useWatch } from '../../lib/form';
import {
  assignableRoles,
  emptyUserForm,
  isBlankUserForm,
  userCreateBody,
  userFormSchema,
  userToForm,
  userUpdateBody,
  roleLabel,
  type Role,
  type User,
  type UserFormValues,
} from '@bathylog/shared';
import { createUser, updateUser } from '../../api/users';
import { AccountFields } from '../../components/account-fields';
import { ConfirmModal } from '../../components/confirm-modal';
import { FormActions, useFormAlerts } from '../../components/form-actions';
import { FormCard } from '../../components/record-form';
import { useEntityNames, type EntityNames } from '../../lib/settings';

/** Labels and tooltips of the role check-boxes, in the order users know (docs/screens.md#user-form). */
const roleOrder: Role[] = [
  'admin',
  'cruise_manager',
  'template_manager',
  'event_manager',
  'event_logger',
  'power_logger',
  'aux_data_inserter',
  'event_watcher',
  'guest',
];

function roleInfo(role: Role, names: EntityNames): { label: string; description: string } {
  const label = roleLabel(role, names.Cruise);
  switch (role) {
    case 'admin':
      return { label, description: 'Basically God-like' };
    case 'cruise_manager':
      return { label, description: `Ability to edit ${names.cruises} and ${names.lowerings}.` };
    case 'template_manager':
      return { label, description: 'Ability to edit event templates.' };
    case 'event_manager':
      return { label, description: `Ability to review events independent of ${names.lowerings}.` };
    case 'event_logger':
      return { label, description: 'Ability to submit new events.' };
    case 'power_logger':
      return { label, description: 'Ability to submit new events from admin_only templates.' };
    case 'aux_data_inserter':
      return {
        label,
        description: 'Ability to add navigation, sensor data and frame grabs to any event (inserter scripts).',
      };
    case 'event_watcher':
      return { label, description: 'Ability to view events.' };
    case 'guest':
      return { label, description: 'Offered on the login page as a guest account; views events.' };
  }
}

/** The reset link sent to a new user: the app's own origin and root path, wherever it is served. */
export function resetPasswordUrl(): string {
  return `${window.location.origin}/resetPassword/`;
}

export interface UserFormProps {
  /** The user being edited; null = create mode. */
  user: User | null;
  viewer: { id: string | null; roles: readonly string[] };
  /** After a successful create or update: refresh the lists (and the profile when it was the viewer). */
  onSaved: (user: { id: string; created: boolean }) => void | Promise<void>;
  /** Reports whether the form is blank (Create User is disabled then). */
  onBlankChange?: (blank: boolean) => void;
}

/**
 * The add/edit form on the right of /users (docs/screens.md#user-form). Mount it with
 * `key={user?.id ?? 'new'}`: choosing another user starts a fresh form with its messages cleared.
 */
/** The warning before an admin removes their own Admin role (docs/screens.md#user-form). */
export const ownAdminWarning =
  'You are removing your own Admin role. Once saved you are logged out, and when you log in again you can no longer manage users or the system. Another admin must give the role back.';

export function UserForm({ user, viewer, onSaved, onBlankChange }: UserFormProps) {
  const names = useEntityNames();
  const isAdmin = viewer.roles.includes('admin');
  const isSelf = !!user && user.id === viewer.id;
  const alerts = useFormAlerts();
  const initial = user ? userToForm(user) : emptyUserForm();

  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<UserFormValues>({ schema: userFormSchema, defaultValues: initial });

  const values = useWatch({ control }) as UserFormValues;
  const blank = isBlankUserForm({ ...emptyUserForm(), ...values, roles: values.roles ?? [] });
  useEffect(() => {
    onBlankChange?.(!user && blank);
  }, [user, blank, onBlankChange]);

  // Only the roles the viewer may grant (docs/screens.md#user-form); a cruise manager never edits an admin.
  const grantable = roleOrder.filter((r) => assignableRoles(viewer.roles).includes(r));

  // An admin who takes away their own Admin role is asked first: the save ends their session.
  const [dropOwnAdmin, setDropOwnAdmin] = useState<UserFormValues | null>(null);
  const save = (form: UserFormValues) =>
    alerts.save(async () => {
      if (user) {
        await updateUser(user.id, userUpdateBody(form, { isAdmin, isSelf }));
        alerts.setMessage('User updated');
        reset({ ...form, password: '', confirmPassword: '' });
        await onSaved({ id: user.id, created: false });
      } else {
        const id = await createUser(userCreateBody(form, { isAdmin }, resetPasswordUrl()));
        alerts.setMessage('User created');
        reset(emptyUserForm());
        await onSaved({ id, created: true });
      }
    });
  const onSubmit = alerts.submit(
    handleSubmit((form) => {
      if (isSelf && isAdmin && !form.roles.includes('admin')) setDropOwnAdmin(form);
      else return save(form);
    }),
  );

  return (
    <FormCard title={user ? 'Update User' : 'Add User'} onSubmit={onSubmit}>
      <AccountFields
        idPrefix="user-form"
        register={register}
        errors={errors}
        autoComplete="off"
        columns
        emailReadOnly={!!user}
      />
      {isAdmin && (
        <Row className="mb-2">
          <Col lg={6}>
            <Form.Check type="switch" id="user-form-system-user" label="System User" {...register('system_user')} />
          </Col>
          {!isSelf && (
            <Col lg={6}>
              <Form.Check type="switch" id="user-form-disabled" label="User Disabled" {...register('disabled')} />
            </Col>
          )}
        </Row>
      )}
      <fieldset className="mb-3" aria-describedby="user-form-roles-error">
        <legend className="fs-6 mb-1">
          Roles
          <span className="text-danger" aria-hidden="true">
            {' '}
            *
          </span>
        </legend>
        {grantable.map((role) => {
          const info = roleInfo(role, names);
          return (
            <Form.Check
              key={role}
              type="checkbox"
              id={`user-form-role-${role}`}
              label={
                <OverlayTrigger
                  placement="right"
                  overlay={<Tooltip id={`role-tip-${role}`}>{info.description}</Tooltip>}
                >
                  <span>{info.label}</span>
                </OverlayTrigger>
              }
              value={role}
              isInvalid={!!errors.roles}
              {...register('roles')}
            />
          );
        })}
        {errors.roles && (
          <div id="user-form-roles-error" className="invalid-feedback d-block">
            {errors.roles.message}
          </div>
        )}
      </fieldset>
      <FormActions
        {...alerts}
        resetLabel="Reset Values"
        dirty={isDirty}
        submitting={isSubmitting}
        onReset={() => {
          reset(initial);
          alerts.clear();
        }}
        submitLabel={user ? 'Update' : 'Create'}
        editing={!!user}
      />
      <ConfirmModal
        show={dropOwnAdmin !== null}
        title="Remove your own Admin role?"
        body={ownAdminWarning}
        confirmLabel="Remove my Admin role"
        onHide={() => setDropOwnAdmin(null)}
        onConfirm={() => {
          const form = dropOwnAdmin;
          setDropOwnAdmin(null);
          if (form) void save(form);
        }}
      />
    </FormCard>
  );
}
