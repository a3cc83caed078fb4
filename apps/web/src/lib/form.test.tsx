import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { z } from 'zod/mini';
import { useFieldArray, useForm, useWatch, type Control, type FormSchema } from './form';

afterEach(cleanup);

interface Account {
  name: string;
  password: string;
  confirm: string;
  roles: string[];
  active: boolean;
}

const accountSchema = z
  .object({
    name: z.string().check(z.trim(), z.minLength(1, 'Required'), z.maxLength(5, 'Too long')),
    password: z.string().check(z.minLength(1, 'Required')),
    confirm: z.string(),
    roles: z.array(z.string()).check(z.minLength(1, 'At least one role')),
    active: z.boolean(),
  })
  .check(
    z.refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'Passwords must match' }),
  ) as unknown as FormSchema<Account>;

const blank: Account = { name: '', password: '', confirm: '', roles: [], active: false };

function AccountForm({
  onSave,
  mode,
  initial = blank,
}: {
  onSave: (values: Account) => unknown;
  mode?: 'onChange';
  initial?: Account;
}) {
  const { register, handleSubmit, reset, formState } = useForm<Account>({
    schema: accountSchema,
    defaultValues: initial,
    mode,
  });
  const { errors, isDirty, isSubmitting } = formState;
  return (
    <form onSubmit={handleSubmit(onSave)} noValidate>
      <input aria-label="Name" {...register('name')} />
      <span data-testid="name-error">{errors.name?.message}</span>
      <input aria-label="Password" {...register('password')} />
      <span data-testid="password-error">{errors.password?.message}</span>
      <input aria-label="Confirm" {...register('confirm')} />
      <span data-testid="confirm-error">{errors.confirm?.message}</span>
      {['admin', 'guest'].map((role) => (
        <input key={role} type="checkbox" aria-label={role} value={role} {...register('roles')} />
      ))}
      <span data-testid="roles-error">{errors.roles?.message}</span>
      <input type="checkbox" aria-label="Active" {...register('active')} />
      <span data-testid="state">
        {isDirty ? 'dirty' : 'clean'} {isSubmitting ? 'submitting' : 'idle'}
        {mode ? (formState.isValid ? ' valid' : ' invalid') : ''}
      </span>
      <button type="button" onClick={() => reset()}>
        Reset
      </button>
      <button type="submit">Save</button>
    </form>
  );
}

const text = (id: string) => screen.getByTestId(id).textContent;
const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('useForm', () => {
  it('shows nothing before a submit; a submit shows each field’s first message and focuses the first field in error', async () => {
    const onSave = vi.fn();
    render(<AccountForm onSave={onSave} />);
    type('Password', 'x');
    expect(text('name-error')).toBe('');
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(text('name-error')).toBe('Required'));
    expect(text('password-error')).toBe('');
    expect(text('confirm-error')).toBe('Passwords must match');
    expect(text('roles-error')).toBe('At least one role');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(onSave).not.toHaveBeenCalled();
  });

  it('after a submit, checks a field again as it changes and leaves the other fields’ messages as they were', async () => {
    render(<AccountForm onSave={vi.fn()} />);
    type('Password', 'secret');
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(text('confirm-error')).toBe('Passwords must match'));
    type('Name', 'toolong');
    await waitFor(() => expect(text('name-error')).toBe('Too long'));
    type('Name', 'ann');
    await waitFor(() => expect(text('name-error')).toBe(''));
    // Changing the password re-checks the password only: Confirm keeps its message until it changes.
    type('Password', 'other');
    await act(async () => {});
    expect(text('confirm-error')).toBe('Passwords must match');
    type('Confirm', 'other');
    await waitFor(() => expect(text('confirm-error')).toBe(''));
  });

  it('hands the schema’s output to the submit handler, with check-box groups as arrays and a lone check-box as a boolean', async () => {
    const onSave = vi.fn();
    render(<AccountForm onSave={onSave} />);
    type('Name', '  ann ');
    type('Password', 'pw');
    type('Confirm', 'pw');
    fireEvent.click(screen.getByLabelText('guest'));
    fireEvent.click(screen.getByLabelText('Active'));
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toEqual({
      name: 'ann',
      password: 'pw',
      confirm: 'pw',
      roles: ['guest'],
      active: true,
    });
  });

  it('is submitting while the handler runs, dirty while the values differ from the last reset, and reset restores the fields', async () => {
    let finish = () => {};
    const onSave = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const initial = { ...blank, name: 'bob', password: 'pw', confirm: 'pw', roles: ['admin'] };
    render(<AccountForm onSave={onSave} initial={initial} />);
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('bob');
    expect((screen.getByLabelText('admin') as HTMLInputElement).checked).toBe(true);
    expect(text('state')).toBe('clean idle');
    type('Name', 'bo');
    await waitFor(() => expect(text('state')).toBe('dirty idle'));
    type('Name', 'bob');
    await waitFor(() => expect(text('state')).toBe('clean idle'));
    fireEvent.click(screen.getByLabelText('admin'));
    await waitFor(() => expect(text('state')).toBe('dirty idle'));
    fireEvent.click(screen.getByText('Reset'));
    await waitFor(() => expect(text('state')).toBe('clean idle'));
    expect((screen.getByLabelText('admin') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(text('state')).toBe('clean submitting'));
    await act(async () => finish());
    await waitFor(() => expect(text('state')).toBe('clean idle'));
  });

  it('with mode onChange, checks a field from its first change and knows whether the form is valid', async () => {
    render(
      <AccountForm
        onSave={vi.fn()}
        mode="onChange"
        initial={{ ...blank, password: 'pw', confirm: 'pw', roles: ['admin'] }}
      />,
    );
    await waitFor(() => expect(text('state')).toBe('clean idle invalid'));
    type('Name', 'toolong');
    await waitFor(() => expect(text('name-error')).toBe('Too long'));
    type('Name', 'ann');
    await waitFor(() => expect(text('state')).toBe('dirty idle valid'));
    expect(text('name-error')).toBe('');
  });
});

interface Template {
  color: string;
  options: { name: string }[];
}

const templateSchema = z.object({
  color: z.string().check(z.regex(/^(#[0-9a-f]{6})?$/, 'Not a colour')),
  options: z.array(z.object({ name: z.string().check(z.minLength(1, 'Name required')) })),
}) as unknown as FormSchema<Template>;

function Option({ control, index }: { control: Control<Template>; index: number }) {
  const name = useWatch({ control, name: `options.${index}.name` });
  return <span data-testid={`watch-${index}`}>{name}</span>;
}

function TemplateForm() {
  const { register, handleSubmit, control, setValue, formState } = useForm<Template>({
    schema: templateSchema,
    defaultValues: { color: '', options: [{ name: 'a' }, { name: 'b' }] },
  });
  const { fields, append, remove, move } = useFieldArray({ control, name: 'options' });
  const values = useWatch({ control });
  return (
    <form onSubmit={handleSubmit(() => {})} noValidate>
      <input aria-label="Colour" {...register('color')} />
      <span data-testid="color-error">{formState.errors.color?.message}</span>
      <button type="button" onClick={() => setValue('color', 'red', { shouldDirty: true, shouldValidate: true })}>
        Red
      </button>
      {fields.map((field, index) => (
        <div key={field.id}>
          <input aria-label={`Option ${index + 1}`} {...register(`options.${index}.name`)} />
          <span data-testid={`error-${index}`}>{formState.errors.options?.[index]?.name?.message}</span>
          <Option control={control} index={index} />
        </div>
      ))}
      <span data-testid="values">{values.options.map((o) => o.name).join(',')}</span>
      <button type="button" onClick={() => append({ name: '' })}>
        Add
      </button>
      <button type="button" onClick={() => move(0, 1)}>
        Move
      </button>
      <button type="button" onClick={() => remove(0)}>
        Remove
      </button>
      <button type="submit">Save</button>
    </form>
  );
}

const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

describe('useFieldArray, useWatch and setValue', () => {
  it('appends (focusing the new item), moves and removes items with their values and messages', async () => {
    render(<TemplateForm />);
    expect([value('Option 1'), value('Option 2')]).toEqual(['a', 'b']);
    fireEvent.click(screen.getByText('Add'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Option 3')));
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(text('error-2')).toBe('Name required'));
    type('Option 1', 'x');
    await waitFor(() => expect(text('values')).toBe('x,b,'));
    expect(text('watch-0')).toBe('x');
    fireEvent.click(screen.getByText('Move'));
    await waitFor(() => expect(text('values')).toBe('b,x,'));
    expect([value('Option 1'), value('Option 2')]).toEqual(['b', 'x']);
    expect(text('watch-1')).toBe('x');
    fireEvent.click(screen.getByText('Remove'));
    await waitFor(() => expect(text('values')).toBe('x,'));
    expect(value('Option 1')).toBe('x');
    expect(text('error-1')).toBe('Name required');
    type('Option 2', 'c');
    await waitFor(() => expect(text('error-1')).toBe(''));
  });

  it('setValue writes the field and, asked to, checks it before any submit', async () => {
    render(<TemplateForm />);
    fireEvent.click(screen.getByText('Red'));
    expect(value('Colour')).toBe('red');
    await waitFor(() => expect(text('color-error')).toBe('Not a colour'));
  });
});
