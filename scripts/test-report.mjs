// Reading the JSON reports of Vitest and Playwright back into one line per failed test, so that the
// tail of a long log (all a CI run keeps) says what failed and why. Used by `npm test` and `test:soak`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The opening lines of a failure's messages, indented under its name. */
export function firstLines(messages, max = 12) {
  const lines = (messages ?? [])
    .join('\n')
    .replace(/\u001b\[[0-9;]*m/g, '') // eslint-disable-line no-control-regex -- colour codes in a log
    .split('\n')
    .filter((l) => l.trim());
  return lines.length
    ? `\n${lines
        .slice(0, max)
        .map((l) => `      ${l.slice(0, 400)}`)
        .join('\n')}`
    : '';
}

/**
 * A Vitest JSON report (`--reporter=json --outputFile.json=…`): its counts and a line per failed
 * test, or null when the run wrote none (it did not get that far).
 */
export function readVitestReport(report, root) {
  if (!existsSync(report)) return null;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const failures = [];
  for (const file of r.testResults)
    for (const t of file.assertionResults)
      if (t.status === 'failed')
        failures.push(`vitest ${path.relative(root, file.name)} › ${t.fullName}${firstLines(t.failureMessages)}`);
  // A file that failed before its tests ran (an import, a beforeAll) has no failed assertion of its own.
  for (const file of r.testResults)
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'))
      failures.push(`vitest ${path.relative(root, file.name)}${firstLines([file.message ?? ''])}`);
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + (r.numTodoTests ?? 0),
    failures,
  };
}

/** A line per failed (or retried) test of a Playwright JSON report's suites. */
export function playwrightFailures(suites, trail = [], failures = []) {
  for (const suite of suites) {
    const names = suite.title && !suite.title.endsWith('.ts') ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      const failedAll = (spec.tests ?? []).some((t) => t.status === 'unexpected');
      const errors = (spec.tests ?? []).flatMap((t) =>
        (t.results ?? []).flatMap((r) => (r.errors ?? []).map((e) => e.message ?? '')),
      );
      const retried = (spec.tests ?? []).some((t) => t.status === 'flaky');
      if (failedAll || retried)
        failures.push(
          `playwright ${spec.file}:${spec.line} › ${[...names, spec.title].join(' › ')}${retried ? ' (passed on retry)' : ''}${firstLines(errors.slice(0, 1))}`,
        );
    }
    playwrightFailures(suite.suites ?? [], names, failures);
  }
  return failures;
}
