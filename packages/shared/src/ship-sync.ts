import { z } from 'zod/mini';
import type { CreateShip, RecordOrigin, Ship, ShipState, UpdateShip } from './schemas/sync.js';

/**
 * Ship to shore in the client (docs/screens.md#ship-to-shore): a shore server follows one or more
 * ships, each through a read-only device key the ship's admin created for it. The wire objects are
 * in schemas/sync.ts (with the origin a copied record carries); here are the words of the states
 * and the rules of the add / edit form.
 */

/** "From ship <name>", the mark of a copied record on its card and in its details. */
export function fromShipText(origin: RecordOrigin): string {
  return `From ship ${origin.ship_name}`;
}

/** The state's words beside its colour (a badge always says what it means). */
export const shipStateLabels: Record<ShipState, string> = {
  following: 'Following',
  catching_up: 'Catching up',
  offline: 'Offline',
  refused: 'Refused',
  paused: 'Paused',
};

// The add / edit form ------------------------------------------------------------------------

export const shipFormMessages = {
  required: 'Required',
  invalidUrl: 'Must be an http:// or https:// address',
  invalidBandwidth: 'Must be a whole number of kbit/s, 1 or more',
  /** The stored key is only sent to the host it was given for (docs/security.md#a-followed-ship). */
  keyNeeded: "A new address needs the ship's key again: the stored key is only sent to the ship it was given for",
} as const;

/** Scheme, host and port of an address (where its key is sent), or null for no http(s) address. */
function hostOf(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * Whether a ship's new address is another host (scheme, host or port) than the one its stored key
 * was given for: the key must then be given again.
 */
export function isOtherShipHost(storedUrl: string, newUrl: string): boolean {
  return hostOf(storedUrl) !== hostOf(newUrl);
}

/** What the add/edit form holds: text as typed; an empty key on edit keeps the stored one. */
export interface ShipFormValues {
  name: string;
  url: string;
  key: string;
  bandwidth_kbps: string;
  enabled: boolean;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    // No user or password in the address: the device key is the ship's credential.
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * The form's rules; `editing` makes the key optional (blank keeps the one the shore holds) unless
 * the address moves to another host than `storedUrl`. All problems are reported at once, each
 * under its field.
 */
export function shipFormSchema(editing: boolean, storedUrl?: string) {
  return z
    .object({
      name: z.string(),
      url: z.string(),
      key: z.string(),
      bandwidth_kbps: z.string(),
      enabled: z.boolean(),
    })
    .check(
      z.superRefine((form, ctx) => {
        const fail = (path: keyof ShipFormValues, message: string) =>
          ctx.addIssue({ code: 'custom', path: [path], message });
        const m = shipFormMessages;
        if (form.name.trim() === '') fail('name', m.required);
        if (form.url.trim() === '') fail('url', m.required);
        else if (!isHttpUrl(form.url.trim())) fail('url', m.invalidUrl);
        if (!editing && form.key.trim() === '') fail('key', m.required);
        if (
          editing &&
          storedUrl !== undefined &&
          form.key.trim() === '' &&
          isHttpUrl(form.url.trim()) &&
          isOtherShipHost(storedUrl, form.url)
        ) {
          fail('key', m.keyNeeded);
        }
        const bw = form.bandwidth_kbps.trim();
        if (bw !== '' && !/^[1-9]\d*$/.test(bw)) fail('bandwidth_kbps', m.invalidBandwidth);
      }),
    );
}

export function emptyShipForm(): ShipFormValues {
  return { name: '', url: '', key: '', bandwidth_kbps: '', enabled: true };
}

export function shipToForm(ship: Ship): ShipFormValues {
  return {
    name: ship.name,
    url: ship.url,
    key: '',
    bandwidth_kbps: ship.bandwidth_kbps === null ? '' : String(ship.bandwidth_kbps),
    enabled: ship.enabled,
  };
}

function bandwidthOf(text: string): number | null {
  const t = text.trim();
  return t === '' ? null : Number(t);
}

/** POST ships from the form (no cap: the bandwidth is left out). */
export function shipCreateBody(form: ShipFormValues): CreateShip {
  const bandwidth = bandwidthOf(form.bandwidth_kbps);
  return {
    name: form.name.trim(),
    url: form.url.trim(),
    key: form.key.trim(),
    ...(bandwidth === null ? {} : { bandwidth_kbps: bandwidth }),
  };
}

/** PATCH ships/{id} from the form: every field but the key, which only when typed anew. */
export function shipUpdateBody(form: ShipFormValues): UpdateShip {
  const key = form.key.trim();
  return {
    name: form.name.trim(),
    url: form.url.trim(),
    bandwidth_kbps: bandwidthOf(form.bandwidth_kbps),
    enabled: form.enabled,
    ...(key === '' ? {} : { key }),
  };
}
