// `npm run lint:electron`: Electronegativity (Doyensec's Electron security checks) over the Electron shell and
// the renderer, as configured in electronegativity.json. Fails on any finding not accepted there (each accepted
// one is printed with its reason), on an accepted one that no longer occurs, and on a file it cannot parse.
// The scanned paths are copied into one temporary folder first: the tool takes one input, and its global
// checks (navigation limits, permission handler, CSP) must see main and the renderer together.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity');

const config = JSON.parse(readFileSync('electronegativity.json', 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'ld-electronegativity-'));
let failed = false;
try {
  for (const path of config.scan) cpSync(path, join(work, path), { recursive: true });
  const electron = JSON.parse(readFileSync('package.json', 'utf8')).devDependencies.electron.replace(
    /^\D*/,
    '',
  );
  // The tool logs progress (and an offline translation download notice) we do not need.
  const log = console.log;
  console.log = () => undefined;
  let result;
  try {
    result = await run({
      input: work,
      isRelative: true,
      electronVersionOverride: electron,
      excludeFromScan: Object.keys(config.skipChecks),
    });
  } finally {
    console.log = log;
  }
  const fileOf = (issue) => relative(work, join(work, issue.file)).split(sep).join('/');
  const unused = new Set(config.accepted);
  for (const issue of result.issues) {
    const where = `${issue.id} ${fileOf(issue)}:${issue.location.line}:${issue.location.column}`;
    const accepted = config.accepted.find((a) => a.check === issue.id && a.file === fileOf(issue));
    if (accepted) {
      unused.delete(accepted);
      console.log(`accepted  ${where}\n          ${accepted.reason}`);
    } else {
      failed = true;
      console.log(
        `FINDING   ${where} (${issue.severity.name}, ${issue.confidence.name})\n          ${issue.description}`,
      );
    }
  }
  for (const a of unused) {
    failed = true;
    console.log(
      `STALE     ${a.check} ${a.file}: accepted in electronegativity.json but no longer found; remove it.`,
    );
  }
  for (const e of result.errors.filter((e) => !e.tolerable)) {
    failed = true;
    console.log(`UNREAD    ${relative(work, e.file)}: ${e.message}`);
  }
  console.log(
    failed
      ? 'electronegativity: findings above need a fix or a reasoned entry in electronegativity.json.'
      : `electronegativity: ${result.globalChecks + result.atomicChecks} checks, no unexplained finding.`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
