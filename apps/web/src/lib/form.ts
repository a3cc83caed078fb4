import { useEffect, useRef, useSyncExternalStore, type BaseSyntheticEvent } from 'react';

/**
 * The forms' state: the part of react-hook-form's API our forms use (docs/lean-client.md#forms-without-react-hook-form),
 * with its behaviour, in about 2 kB instead of 15. Fields are uncontrolled: `register(name)` gives
 * an input its name, ref and change handler; the values live here, immutable (a change copies the
 * path to it), so watchers compare by reference. A zod (or zod/mini) schema checks the whole form:
 * on submit, then each field again as it changes (or from the start with `mode: 'onChange'`); the
 * first message of a path is the one shown, and a failed submit focuses the first field in error
 * (in the order fields were registered).
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- form values are any JSON-like shape */
export type FieldValues = Record<string, any>;
type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** Every dotted path into T (`event_options.${number}.event_option_name`). */
export type Path<T> = T extends readonly (infer E)[]
  ? `${number}` | `${number}.${Path<E>}`
  : T extends object
    ? { [K in keyof T & string]: K | (T[K] extends Primitive ? never : `${K}.${Path<T[K]>}`) }[keyof T & string]
    : never;
type Step<T, K> = T extends readonly (infer E)[] ? E : K extends keyof T ? T[K] : never;
/** The value at a path. */
export type PathValue<T, P> = P extends `${infer K}.${infer R}` ? PathValue<Step<T, K>, R> : Step<T, P>;

export interface FieldError {
  /** The schema's issue code ("custom", "too_small" …). */
  type: string;
  message?: string;
}
/** The errors of a form, shaped as its values; an array of primitives (check-boxes) has one error. */
export type FieldErrors<T> = {
  [K in keyof T]?: NonNullable<T[K]> extends readonly (infer E)[]
    ? E extends Primitive
      ? FieldError
      : (FieldErrors<E> | undefined)[]
    : NonNullable<T[K]> extends Primitive
      ? FieldError
      : FieldErrors<NonNullable<T[K]>>;
};

/** What a zod schema's `safeParseAsync` answers (only what is read here). */
export interface FormSchema<V> {
  safeParseAsync(
    data: unknown,
  ): Promise<
    | { success: true; data: V }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[] } }
  >;
}

export interface UseFormRegisterReturn {
  name: string;
  ref: (el: any) => void;
  onChange: (event: { target: any }) => Promise<void>;
}
export type UseFormRegister<V> = (name: Path<V>) => UseFormRegisterReturn;
export type UseFormSetValue<V> = <P extends Path<V>>(
  name: P,
  value: PathValue<V, P>,
  options?: { shouldDirty?: boolean; shouldValidate?: boolean },
) => void;

export interface FormState<V> {
  errors: FieldErrors<V>;
  isDirty: boolean;
  isSubmitting: boolean;
  isSubmitted: boolean;
  /** No message for the current values; checked only for a form that reads it. */
  isValid: boolean;
}

export interface UseFormOptions<V> {
  schema?: FormSchema<V>;
  defaultValues?: V;
  /** 'onSubmit' (default): fields are checked once the form was submitted; 'onChange': from the first change. */
  mode?: 'onSubmit' | 'onChange';
}

const isIndex = (key: string) => /^\d+$/.test(key);

/** The value at a dotted path. */
export function get(obj: unknown, path: string): any {
  let at: any = obj;
  for (const key of path.split('.')) at = at == null ? undefined : at[key];
  return at;
}

/** A copy of `obj` with `value` at `path` (undefined: removed, and parents left empty with it). */
export function setIn<T>(obj: T, path: string, value: unknown): T {
  const [key, ...rest] = path.split('.') as [string, ...string[]];
  const src: any = obj ?? (isIndex(key) ? [] : {});
  const copy: any = Array.isArray(src) ? [...src] : { ...src };
  const next = rest.length ? setIn(src[key], rest.join('.'), value) : value;
  const empty =
    next === undefined ||
    (value === undefined && rest.length && Object.values(next as object).every((v) => v === undefined));
  if (!empty) copy[key] = next;
  else if (Array.isArray(copy)) copy[+key] = undefined;
  else delete copy[key];
  return copy;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => deepEqual((a as any)[k], (b as any)[k]));
}

const isEmpty = (o: object) => Object.keys(o).length === 0;

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
const isCheck = (el: Field): el is HTMLInputElement => el.type === 'checkbox' || el.type === 'radio';

/** Shows a value in a control: a check-box group checks the boxes whose value is in the array. */
function write(el: Field, value: unknown) {
  if (el.type === 'file') return;
  if (isCheck(el))
    el.checked = Array.isArray(value) ? value.includes(el.value) : el.type === 'radio' ? el.value === value : !!value;
  else el.value = value == null ? '' : String(value);
}

let lastId = 0;

/** The form's store; `control` of the hooks below. */
export class Control<V extends FieldValues = FieldValues> {
  values: V;
  defaults: V;
  state: FormState<V> = { errors: {}, isDirty: false, isSubmitting: false, isSubmitted: false, isValid: false };
  /** The registered controls by name, in the order they were first registered (the focus order). */
  private fields = new Map<string, Set<Field>>();
  private owner = new WeakMap<Field, string>();
  private registrations = new Map<string, UseFormRegisterReturn>();
  private listeners = new Set<() => void>();
  /** The ids of each field array's items, renewed on reset (their fields mount afresh). */
  private arrays = new Map<string, string[]>();
  /** Bumped on reset: a check that started before it is dropped. */
  private resets = 0;
  private wantsValid = false;
  /** A field array's item whose first field takes the focus once rendered (after append). */
  focusPrefix = '';

  constructor(private options: UseFormOptions<V>) {
    this.values = this.defaults = options.defaultValues ?? ({} as V);
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  private emit() {
    this.listeners.forEach((l) => l());
  }

  private update(patch: Partial<FormState<V>>) {
    if (Object.entries(patch).some(([k, v]) => this.state[k as keyof FormState<V>] !== v)) {
      this.state = { ...this.state, ...patch };
      this.emit();
    }
  }

  private setValues(values: V) {
    this.values = values;
    const isDirty = !deepEqual(values, this.defaults);
    if (isDirty !== this.state.isDirty) this.state = { ...this.state, isDirty };
    this.emit();
  }

  private connected(name: string) {
    return [...(this.fields.get(name) ?? [])].filter((el) => el.isConnected);
  }

  /** Runs the schema: the parsed values, or the first message of each path, nested as the values. */
  private async run(): Promise<{ data?: V; errors: FieldErrors<V> }> {
    const schema = this.options.schema;
    if (!schema) return { data: this.values, errors: {} };
    const result = await schema.safeParseAsync(this.values);
    if (result.success) return { data: result.data, errors: {} };
    let errors: FieldErrors<V> = {};
    for (const { path, code, message } of result.error.issues) {
      const at = path.map(String).join('.');
      if (!get(errors, at)) errors = setIn(errors, at, { type: code, message });
    }
    return { errors };
  }

  /** Checks the form and shows (or clears) the message of this one field; the others keep theirs. */
  async validate(name: string) {
    const resets = this.resets;
    const value = get(this.values, name);
    const { errors } = await this.run();
    if (resets !== this.resets || !deepEqual(value, get(this.values, name))) return;
    this.update({ errors: setIn(this.state.errors, name, get(errors, name)), isValid: isEmpty(errors) });
  }

  /** The `isValid` of a form that reads it, checked now and on every change. */
  trackValid() {
    if (this.wantsValid) return;
    this.wantsValid = true;
    void this.checkValid();
  }

  private async checkValid() {
    const resets = this.resets;
    const { errors } = await this.run();
    if (resets === this.resets) this.update({ isValid: isEmpty(errors) });
  }

  register = (name: string): UseFormRegisterReturn => {
    let r = this.registrations.get(name);
    if (!r) {
      r = {
        name,
        ref: (el: Field | null) => {
          if (!el || this.owner.get(el) === name) return;
          this.fields.get(this.owner.get(el)!)?.delete(el);
          this.owner.set(el, name);
          const group = isCheck(el) ? this.connected(name) : [];
          this.fields.set(name, new Set([...group, el]));
          const value = get(this.values, name);
          if (value === undefined) this.setValues(setIn(this.values, name, this.read(name, el)));
          else write(el, value);
        },
        onChange: async ({ target }: { target: Field }) => {
          this.setValues(setIn(this.values, name, this.read(name, target)));
          if (this.options.mode === 'onChange' || this.state.isSubmitted) await this.validate(name);
          else if (this.wantsValid) await this.checkValid();
        },
      };
      this.registrations.set(name, r);
    }
    return r;
  };

  /** A control's value: its text, a check-box's state, or a group's checked values (when the value is an array). */
  private read(name: string, el: Field): unknown {
    if (!isCheck(el)) return el.value;
    if (Array.isArray(get(this.values, name)))
      return this.connected(name)
        .filter((box) => (box as HTMLInputElement).checked)
        .map((box) => box.value);
    return el.type === 'radio' ? (el.checked ? el.value : get(this.values, name)) : el.checked;
  }

  setValue = (name: string, value: unknown, options: { shouldValidate?: boolean } = {}) => {
    this.setValues(setIn(this.values, name, value));
    this.connected(name).forEach((el) => write(el, value));
    if (options.shouldValidate) void this.validate(name);
  };

  /** New values (and the point isDirty compares with); messages and the submitted state go. */
  reset = (values?: V) => {
    this.resets++;
    this.defaults = values ?? this.defaults;
    this.arrays.clear();
    this.fields.forEach((_, name) => this.connected(name).forEach((el) => write(el, get(this.defaults, name))));
    this.setValues(this.defaults);
    this.update({ errors: {}, isSubmitted: false, isSubmitting: false });
    if (this.wantsValid) void this.checkValid();
  };

  handleSubmit =
    (onValid: (values: V, event?: BaseSyntheticEvent) => unknown) =>
    async (event?: BaseSyntheticEvent): Promise<void> => {
      event?.preventDefault();
      const resets = this.resets;
      this.update({ isSubmitting: true });
      const { data, errors } = await this.run();
      if (resets !== this.resets) return;
      let failure: { error: unknown } | undefined;
      this.update({ errors, isValid: isEmpty(errors) });
      if (isEmpty(errors)) {
        try {
          await onValid(data!, event);
        } catch (error) {
          failure = { error };
        }
      } else {
        for (const name of this.fields.keys()) {
          const el = this.connected(name).find((c) => !isCheck(c) || !c.disabled);
          if (el && get(errors, name)) {
            el.focus();
            break;
          }
        }
      }
      if (resets === this.resets) this.update({ isSubmitted: true, isSubmitting: false });
      if (failure) throw failure.error;
    };

  /** The item ids of a field array (kept beside the values, as keys for its items). */
  ids(name: string): string[] {
    let ids = this.arrays.get(name);
    if (!ids) {
      ids = ((get(this.values, name) as unknown[] | undefined) ?? []).map(() => String(++lastId));
      this.arrays.set(name, ids);
    }
    return ids;
  }

  /** Applies one edit to a field array: its values, item ids and messages alike. */
  editArray(name: string, edit: (items: unknown[], what: 'ids' | 'values' | 'errors') => unknown[]) {
    this.arrays.set(name, edit([...this.ids(name)], 'ids') as string[]);
    const errors = get(this.state.errors, name);
    if (Array.isArray(errors))
      this.state = { ...this.state, errors: setIn(this.state.errors, name, edit([...errors], 'errors')) };
    this.setValues(setIn(this.values, name, edit([...((get(this.values, name) as unknown[]) ?? [])], 'values')));
  }

  /** After an append has rendered: the new item's first registered field takes the focus. */
  focusPending() {
    const prefix = this.focusPrefix;
    if (!prefix) return;
    this.focusPrefix = '';
    for (const name of this.fields.keys()) {
      const el = name.startsWith(prefix) && this.connected(name)[0];
      if (el) return el.focus();
    }
  }
}

export interface UseFormReturn<V extends FieldValues> {
  control: Control<V>;
  register: UseFormRegister<V>;
  setValue: UseFormSetValue<V>;
  reset: (values?: V) => void;
  handleSubmit: Control<V>['handleSubmit'];
  formState: FormState<V>;
}

/** The form: react-hook-form's `useForm` for the options and members above. */
export function useForm<V extends FieldValues>(options: UseFormOptions<V> = {}): UseFormReturn<V> {
  const ref = useRef<Control<V>>(null);
  const control = (ref.current ??= new Control(options));
  const state = useSyncExternalStore(control.subscribe, () => control.state);
  return {
    control,
    register: control.register as UseFormRegister<V>,
    setValue: control.setValue as UseFormSetValue<V>,
    reset: control.reset,
    handleSubmit: control.handleSubmit,
    formState: {
      ...state,
      get isValid() {
        control.trackValid();
        return control.state.isValid;
      },
    },
  };
}

/** The current values (re-rendered on every change), or one path's value (re-rendered when it changes). */
export function useWatch<V extends FieldValues>(options: { control: Control<V> }): V;
export function useWatch<V extends FieldValues, P extends Path<V>>(options: {
  control: Control<V>;
  name: P;
}): PathValue<V, P>;
export function useWatch({ control, name }: { control: Control; name?: string }) {
  return useSyncExternalStore(control.subscribe, () => (name ? get(control.values, name) : control.values));
}

/** The items of an array field as keys for their fields, and the edits react-hook-form names so. */
export function useFieldArray<V extends FieldValues>({ control, name }: { control: Control<V>; name: Path<V> }) {
  const ids = useSyncExternalStore(control.subscribe, () => control.ids(name));
  useEffect(() => control.focusPending(), [control, ids]);
  return {
    fields: ids.map((id) => ({ id })),
    append: (item: unknown) => {
      control.focusPrefix = `${name}.${ids.length}.`;
      control.editArray(name, (items, what) => [
        ...items,
        what === 'ids' ? String(++lastId) : what === 'values' ? item : undefined,
      ]);
    },
    remove: (index: number) => control.editArray(name, (items) => items.filter((_, i) => i !== index)),
    move: (from: number, to: number) =>
      control.editArray(name, (items) => {
        items.splice(to, 0, ...items.splice(from, 1));
        return items;
      }),
  };
}
