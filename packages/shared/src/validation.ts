import { z } from 'zod/mini';

/**
 * zod/mini loads no locale: without one, every message zod writes itself is "Invalid input". The
 * server's 400s, the CLI and the import report quote zod's English messages (and `is required`
 * is read from them), so the server and the CLI call this once at start. The web client does not:
 * its forms show only messages the schemas spell out.
 */
export function configureZodMessages(): void {
  z.config(z.locales.en());
}

/**
 * Turns zod issues into one message in the Joi style Sealog clients already show:
 * `"event_value" is not allowed to be empty`, `"extra" is not allowed`, `"roles" must contain at least 1 items`.
 */
export function pathLabel(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || 'value';
}

function describeType(expected: string): string {
  switch (expected) {
    case 'object':
    case 'array':
      return `must be of type ${expected}`;
    case 'string':
    case 'number':
    case 'boolean':
      return `must be a ${expected}`;
    case 'int':
      return 'must be an integer';
    default:
      return `must be a ${expected}`;
  }
}

export function issueMessage(issue: z.core.$ZodIssue): string {
  const label = `"${pathLabel(issue.path)}"`;
  switch (issue.code) {
    case 'invalid_type':
      // zod 4 leaves `input` out of issues unless asked (reportInput), so read the message too.
      if ('input' in issue ? issue.input === undefined : /received undefined$/.test(issue.message))
        return `${label} is required`;
      if (issue.expected === 'int') return `${label} must be an integer`;
      return `${label} ${describeType(issue.expected)}`;
    case 'unrecognized_keys':
      return issue.keys.map((k) => `"${pathLabel([...issue.path, k])}" is not allowed`).join('. ');
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string' && issue.exact) return `${label} length must be ${min} characters long`;
      if (issue.origin === 'string')
        return min === 1
          ? `${label} is not allowed to be empty`
          : `${label} length must be at least ${min} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label} must contain at least ${min} items`;
      return `${label} must be greater than or equal to ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string' && issue.exact) return `${label} length must be ${max} characters long`;
      if (issue.origin === 'string') return `${label} length must be less than or equal to ${max} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `${label} must contain less than or equal to ${max} items`;
      return `${label} must be less than or equal to ${max}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `${label} must be a valid email`;
      if (issue.format === 'url') return `${label} must be a valid uri`;
      return `${label} ${issue.message}`;
    case 'invalid_value':
      return `${label} must be one of [${issue.values.map(String).join(', ')}]`;
    case 'invalid_union': {
      // Report the branch that came closest: its first problem names the field.
      const branches = issue.errors.filter((b) => b.length > 0);
      const best = branches.sort((a, b) => a.length - b.length)[0];
      if (best?.[0]) return issueMessage({ ...best[0], path: [...issue.path, ...best[0].path] } as z.core.$ZodIssue);
      return `${label} does not match any of the allowed forms`;
    }
    default:
      return `${label} ${issue.message}`;
  }
}

/** The first issue is the one reported, as Joi reports the first failure. */
export function formatZodError(error: z.core.$ZodError): string {
  const first = error.issues[0];
  return first ? issueMessage(first) : 'Invalid request input';
}
