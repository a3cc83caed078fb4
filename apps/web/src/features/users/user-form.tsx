import { useEffect, useState } from 'react';
import { Card, Col, Form, OverlayTrigger, Row, Tooltip } from 'react-bootstrap';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  assignableRoles,
  emptyUserForm,
  isBlankUserForm,
  userCreateBody,
  userFormSchema,
  userToForm,
  userUpdateBody,
  type Role,
  type User,
  type UserFormValues,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { createUser, updateUser } from '../../api/users';
import { FormActions } from '../../components/form-actions';
import { PasswordPair, TextField } from '../../components/form-field';
import { useEntityNames, type EntityNames } from '../../lib/settings';

/** Labels and tooltips of the role check-boxes (client-behaviour §13), in the order users know. */
const roleOrder: Role[] = [
  'admin',
  'cruise_manager',
  'template_manager',
  'event_manager',
  'event_logger',
  'power_logger',
  'event_watcher',
  'guest',
];

function roleInfo(role: Role, names: EntityNames): { label: string; description: string } {
  switch (role) {
    case 'admin':
      return { label: 'Admin', description: 'Basically God-like' };
    case 'cruise_manager':
      return {
        label: `${names.Cruise} Manager`,
        description: `Ability to edit ${names.cruises} and ${names.lowerings}.`,
      };
    case 'template_manager':
      return { label: 'Template Manager', description: 'Ability to edit event templates.' };
    case 'event_manager':
      return { label: 'Event Manager', description: `Ability to review events independent of ${names.lowerings}.` };
    case 'event_logger':
      return { label: 'Event Logger', description: 'Ability to submit new events.' };
    case 'power_logger':
      return { label: 'Power Logger', description: 'Ability to submit new events from admin_only templates.' };
    case 'event_watcher':
      return { label: 'Event Watcher', description: 'Ability to view events.' };
    case 'guest':
      return { label: 'Guest', description: 'Offered on the login page as a guest account; views events.' };
  }
}

/** The reset link sent to a new user: the app's own origin and root path (seed 000 §2). */
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
 * The add/edit form on the right of /users (seed 000 §4-6). Mount it with `key={user?.id ?? 'new'}`:
 * choosing another user starts a fresh form with its messages cleared.
 */
export function UserForm({ user, viewer, onSaved, onBlankChange }: UserFormProps) {
  const names = useEntityNames();
  const isAdmin = viewer.roles.includes('admin');
  const isSelf = !!user && user.id === viewer.id;
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const initial = user ? userToForm(user) : emptyUserForm();

  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<UserFormValues>({ resolver: zodResolver(userFormSchema), defaultValues: initial });

  const values = useWatch({ control }) as UserFormValues;
  const blank = isBlankUserForm({ ...emptyUserForm(), ...values, roles: values.roles ?? [] });
  useEffect(() => {
    onBlankChange?.(!user && blank);
  }, [user, blank, onBlankChange]);

  // Only the roles the viewer may grant (seed 000 §6); a cruise manager never edits an admin.
  const grantable = roleOrder.filter((r) => assignableRoles(viewer.roles).includes(r));

  const onSubmit = handleSubmit(async (form) => {
    setError('');
    setMessage('');
    try {
      if (user) {
        await updateUser(user.id, userUpdateBody(form, { isAdmin, isSelf }));
        setMessage('User updated');
        reset({ ...form, password: '', confirmPassword: '' });
        await onSaved({ id: user.id, created: false });
      } else {
        const id = await createUser(userCreateBody(form, { isAdmin }, resetPasswordUrl()));
        setMessage('User created');
        reset(emptyUserForm());
        await onSaved({ id, created: true });
      }
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  return (
    <Card>
      <Card.Header as="h2" className="h6 mb-0 py-2">
        {user ? 'Update User' : 'Add User'}
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={onSubmit} aria-label={user ? 'Update User' : 'Add User'}>
          <Row>
            <Col sm={6}>
              <TextField
                idPrefix="user-form"
                label="Username"
                required
                registration={register('username')}
                error={errors.username}
                autoComplete="off"
              />
            </Col>
            <Col sm={6}>
              <TextField
                idPrefix="user-form"
                label="Full Name"
                required
                registration={register('fullname')}
                error={errors.fullname}
                autoComplete="off"
              />
            </Col>
          </Row>
          <TextField
            idPrefix="user-form"
            label="Email"
            required
            type="email"
            registration={register('email')}
            error={errors.email}
            readOnly={!!user}
            autoComplete="off"
          />
          <PasswordPair
            columns
            idPrefix="user-form"
            password={register('password')}
            confirmPassword={register('confirmPassword')}
            errors={errors}
          />
          {isAdmin && (
            <Row className="mb-2">
              <Col sm={6}>
                <Form.Check type="switch" id="user-form-system-user" label="System User" {...register('system_user')} />
              </Col>
              {!isSelf && (
                <Col sm={6}>
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
            error={error}
            message={message}
            onCloseError={() => setError('')}
            onCloseMessage={() => setMessage('')}
            resetLabel="Reset Values"
            dirty={isDirty}
            submitting={isSubmitting}
            onReset={() => {
              reset(initial);
              setError('');
              setMessage('');
            }}
            submitLabel={user ? 'Update' : 'Create'}
            editing={!!user}
          />
        </Form>
      </Card.Body>
    </Card>
  );
}
