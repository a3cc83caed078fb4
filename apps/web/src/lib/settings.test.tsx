import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { clientSettingsSchema } from '@bathylog/shared';
import { SettingsProvider } from './settings';

afterEach(cleanup);

describe('SettingsProvider', () => {
  it('names the browser tab after the configured header title', () => {
    document.title = 'Bathylog';
    const settings = clientSettingsSchema.parse({ headerTitle: 'R/V Atlantis Dive Log' });
    render(
      <SettingsProvider settings={settings}>
        <p>screen</p>
      </SettingsProvider>,
    );
    expect(document.title).toBe('R/V Atlantis Dive Log');
  });
});
