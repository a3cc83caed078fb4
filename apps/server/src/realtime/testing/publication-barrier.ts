import { wsPath } from '@bathylog/shared';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/test-app.js';
import { systemIds } from '../../seed/system.js';
import type { RawClient } from './ws-test-client.js';

/**
 * A publication every given client receives (the ASNAP custom var flipped by an admin), sent after
 * the ones under test: once it arrived, every earlier publication has too, so a test can assert
 * that something was not delivered. The clients must subscribe to updateCustomVars.
 */
export function publicationBarrier(t: () => TestApp, adminToken: () => string) {
  let toggle = false;
  return async (...clients: RawClient[]): Promise<void> => {
    toggle = !toggle;
    const waits = clients.map((c) => c.nextPub(wsPath('updateCustomVars')));
    const res = await t().api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, {
      token: adminToken(),
      body: { custom_var_value: toggle ? 'On' : 'Off' },
    });
    expect(res.statusCode).toBe(204);
    await Promise.all(waits);
  };
}
