import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web import direction of eslint.config.js (lib/ + api/ → components/ → domain/ → features/ →
 * app/), run the way `npm run lint` runs it, on snippets placed in the client. The imported modules
 * are real files: the rule reports only what the resolver finds, so a probe importing a path that
 * does not exist would prove nothing.
 */
const eslint = new ESLint();

async function zoneReports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

const src = 'apps/web/src';

describe('the web import direction lint rule', () => {
  it.each([
    [
      'a feature importing another feature',
      `${src}/features/review/lint-probe.ts`,
      "export { CruiseMenuScreen } from '../cruise-menu/cruise-menu-screen';",
      'features/review imports no other feature',
    ],
    [
      'a feature importing another feature dynamically',
      `${src}/features/lowerings/lint-probe.ts`,
      "export const load = () => import('../milestones/milestones-modal');",
      'features/lowerings imports no other feature',
    ],
    [
      'a feature importing another feature for a type only',
      `${src}/features/review/lint-probe.ts`,
      "import type { YearGroup } from '../cruise-menu/cruise-menu-state';\nexport type T = YearGroup;",
      'features/review imports no other feature',
    ],
    [
      'a feature importing app/',
      `${src}/features/review/lint-probe.ts`,
      "export { routes } from '../../app/router';",
      'features import nothing from app/',
    ],
    [
      'domain/ importing a feature',
      `${src}/domain/events/lint-probe.ts`,
      "export { MapScreen } from '../../features/review/map-screen';",
      'domain/ is shared by the features',
    ],
    [
      'components/ importing domain/',
      `${src}/components/lint-probe.ts`,
      "export { EventLine } from '../domain/events/components/event-line';",
      'components/ imports only lib/ and api/',
    ],
    [
      'lib/ importing app/',
      `${src}/lib/lint-probe.ts`,
      "export { freeSpaceClass } from '../app/layout/footer-status';",
      'lib/ and api/ are the lowest layer',
    ],
  ])('reports %s', async (_name, filePath, code, message) => {
    const reports = await zoneReports(filePath, code);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(message);
  });

  it('accepts imports that go down, and within a feature', async () => {
    const probes: Array<[string, string]> = [
      [
        `${src}/app/routes/lint-probe.ts`,
        "export { MapScreen } from '../../features/review/map-screen';\nexport { LoweringsScreen } from '../../features/lowerings/lowerings-screen';",
      ],
      [
        `${src}/features/review/lint-probe.ts`,
        [
          "export { reviewKeys } from './api/review';",
          "export { EventLine } from '../../domain/events/components/event-line';",
          "export { ErrorAlert } from '../../components/alerts';",
          "export { api } from '../../api/client';",
          "export { useSettings } from '../../lib/settings';",
        ].join('\n'),
      ],
      [`${src}/domain/events/lint-probe.ts`, "export { ErrorAlert } from '../../components/alerts';"],
      [`${src}/components/lint-probe.ts`, "export { api } from '../api/client';"],
    ];
    for (const [filePath, code] of probes) expect(await zoneReports(filePath, code)).toEqual([]);
  });
});
