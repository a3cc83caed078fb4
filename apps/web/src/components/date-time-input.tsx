import {
  forwardRef,
  lazy,
  Suspense,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
} from 'react';
import { Form, InputGroup } from 'react-bootstrap';
import type { TimeEdge } from '@bathylog/shared';

/**
 * The calendar loads on demand: the login screen's forms share this file's field code, never the
 * calendar (docs/lean-client.md#what-keeps-the-first-load-small).
 */
const DateTimePopover = lazy(() => import('./date-time-popover').then((m) => ({ default: m.DateTimePopover })));

export type DateTimeMode = 'date' | 'datetime';

export type DateTimeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'size' | 'value'> & {
  value?: string;
  isInvalid?: boolean;
  /** A day (`YYYY-MM-DD`) or a day and time (`YYYY-MM-DD HH:mm:ss`); both UTC. Default datetime. */
  mode?: DateTimeMode;
  /** The end of a range: the calendar's time starts at 23:59:59.999 when the field is empty. */
  edge?: TimeEdge;
  /** Where the calendar of an empty field opens (ISO): the record's start or end; today without it. */
  near?: string;
  size?: 'sm';
  /** The field's message, inside the group so it shows under the field and its button. */
  feedback?: ReactNode;
};

/** Writes a value as typing would, so controlled state and the form hook (src/lib/form.ts) both see it. */
function typeInto(input: HTMLInputElement, text: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Every date/time field (docs/screens.md#date-and-time-fields): a text box that takes what a crew
 * member types (a date alone, `YYYY-MM-DD HH:mm`, ISO with or without milliseconds; all UTC) and a
 * calendar button opening a small keyboard-driven picker in UTC. The field's own value, checks and
 * messages stay with the form that uses it.
 */
export const DateTimeInput = forwardRef(function DateTimeInput(
  { mode = 'datetime', edge = 'start', near, size, feedback, disabled, readOnly, ...input }: DateTimeInputProps,
  ref: Ref<HTMLInputElement>,
) {
  const field = useRef<HTMLInputElement | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const setRef = (el: HTMLInputElement | null) => {
    field.current = el;
    if (typeof ref === 'function') ref(el);
    else if (ref) (ref as { current: HTMLInputElement | null }).current = el;
  };
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const what = mode === 'date' ? 'date' : 'date and time';
  return (
    <div className="position-relative">
      <InputGroup size={size} hasValidation>
        <Form.Control
          ref={setRef}
          type="text"
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          readOnly={readOnly}
          {...input}
        />
        <button
          ref={button}
          type="button"
          className="btn btn-outline-secondary"
          aria-label={`Choose ${what} (UTC)`}
          title={`Choose ${what} (UTC)`}
          aria-haspopup="dialog"
          aria-expanded={open}
          disabled={disabled || readOnly}
          onClick={() => setOpen((o) => !o)}
        >
          <i className="bi bi-calendar3" aria-hidden="true" />
        </button>
        {feedback}
      </InputGroup>
      {open && (
        <Suspense fallback={null}>
          {/* Opened before the record's times arrived (a slow link), the calendar shows today; it
              opens again where the record is once they are there (once: a later change of `near`,
              an ongoing dive's end that is now, does not move a calendar in use). */}
          <DateTimePopover
            key={near ? 'near' : 'today'}
            mode={mode}
            edge={edge}
            value={field.current?.value ?? ''}
            near={near}
            label={`Choose ${what} (UTC)`}
            anchor={button}
            onPick={(text) => {
              if (field.current) typeInto(field.current, text);
              close();
            }}
            onClose={close}
          />
        </Suspense>
      )}
    </div>
  );
});
