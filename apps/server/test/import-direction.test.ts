import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's import-direction zones (eslint.config.js, "Server import direction") keep working:
 * a snippet with a wrong arrow gets the zone error, the same import in the right direction none.
 * A rule whose resolver cannot find the `.ts` behind a `.js` import reports nothing at all, which
 * this catches too.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  // Loading the configuration and its plugins takes seconds: once, outside the tests' timeout.
  await eslint.lintText('', { filePath: `${root}apps/server/src/x.ts` });
});

/** The zone messages ESLint gives `code` as if it were the file at `file` (repository path). */
async function zoneErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('server import direction', () => {
  it.each([
    ['realtime/ imports a module', 'apps/server/src/realtime/x.ts', '../modules/events/events.service.js'],
    ['db/ imports a module', 'apps/server/src/db/x.ts', '../modules/events/event-create-writer.js'],
    ['plugins/ imports a repository', 'apps/server/src/plugins/x.ts', '../modules/users/users.repository.js'],
    ['lib/ imports db/', 'apps/server/src/lib/x.ts', '../db/database.js'],
    ['origins/ imports a module', 'apps/server/src/origins/x.ts', '../modules/sync/ships.service.js'],
    ['plugins/ imports origins/', 'apps/server/src/plugins/x.ts', '../origins/record-origins.js'],
    ['a module imports a background job', 'apps/server/src/modules/events/x.ts', '../../jobs/asnap.js'],
    [
      'runtime code imports a migration',
      'apps/server/src/modules/events/x.ts',
      '../../db/migrations/010-search-at-scale.js',
    ],
    ['a migration imports another', 'apps/server/src/db/migrations/099-x.ts', './002-event-search.js'],
    ["a module imports another's repository", 'apps/server/src/modules/audit/x.ts', '../users/users.repository.js'],
    ["a module imports another's routes", 'apps/server/src/modules/lowerings/x.ts', '../cruises/cruises.routes.js'],
    ['shared imports an app', 'packages/shared/src/x.ts', '../../../apps/server/src/config.js'],
  ])('%s: zone error', async (_name, file, target) => {
    const errors = await zoneErrors(file, `import { x } from '${target}';\nexport const y = x;\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('restricted zone');
  });

  it.each([
    ['a module imports a plugin', 'apps/server/src/modules/events/x.ts', '../../plugins/auth.js'],
    ['a module imports origins/', 'apps/server/src/modules/events/x.ts', '../../origins/record-origins.js'],
    ['a module imports its own repository', 'apps/server/src/modules/users/x.ts', './users.repository.js'],
    ["a module imports another's service", 'apps/server/src/modules/audit/x.ts', '../events/events.service.js'],
    ['a migration imports shared SQL', 'apps/server/src/db/migrations/099-x.ts', '../sql/event-search.js'],
    ['the app starts the jobs', 'apps/server/src/app.ts', './jobs/index.js'],
  ])('%s: allowed', async (_name, file, target) => {
    expect(await zoneErrors(file, `import { x } from '${target}';\nexport const y = x;\n`)).toEqual([]);
  });
});
