import { describe, expect, it } from 'vitest';
import { LocalBus, type BusPayloads } from './bus.js';
import { internalChannels } from './internal-channels.js';

const event: BusPayloads['newEvents'] = {
  id: '6b075c9ac4344738796aaeb6',
  ts: '2023-03-15T00:00:00.000Z',
  event_author: 'pilot',
  event_value: 'FISH',
  event_options: [],
  event_free_text: '',
};

describe('the channel bus', () => {
  it('delivers each channel its own payloads', () => {
    const bus = new LocalBus();
    const seen: unknown[] = [];
    const off = bus.subscribe('newEvents', (e) => seen.push(e.event_value));
    bus.subscribe(internalChannels.executeOutput, (line) => seen.push(line.toUpperCase()));
    bus.publish('newEvents', event);
    bus.publish(internalChannels.executeOutput, 'done');
    off();
    bus.publish('newEvents', event);
    expect(seen).toEqual(['FISH', 'DONE']);
  });
});

/** Compile time: `npm run typecheck` fails unless each of these lines is a type error. */
function refusedAtCompileTime(bus: LocalBus) {
  // @ts-expect-error: not a channel
  bus.publish('newEvent', event);
  // @ts-expect-error: a custom var is not an event
  bus.publish('newEvents', { id: '1', custom_var_name: 'asnapStatus', custom_var_value: 'On' });
  // @ts-expect-error: output lines are strings
  bus.publish(internalChannels.executeOutput, { line: 'x' });
  // @ts-expect-error: revocations name a user or a key
  bus.publish(internalChannels.revoked, { username: 'x' });
}
void refusedAtCompileTime;
