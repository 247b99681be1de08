#!/usr/bin/env node
// The two README commands run through here: `npm start` and `npm test` install what is missing first.
// Plain Node with no dependencies, because it runs before `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(title) {
  process.stdout.write(`\n[examhall] ${title}\n`);
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    process.stderr.write(`\n[examhall] failed: ${cmd} ${args.join(' ')}\n`);
    process.exit(r.status ?? 1);
  }
}

/** Installs npm packages when node_modules is missing or older than the lockfile, and checks the native addons load. */
function ensurePackages() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale = !fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(lock).mtimeMs;
  if (stale) {
    step('installing npm packages');
    run(npm, ['ci', '--no-audit', '--no-fund']);
  }
  const probe = spawnSync(
    process.execPath,
    ['-e', "const D=require('better-sqlite3'); new D(':memory:').close(); require('argon2');"],
    { cwd: path.join(root, 'packages', 'server'), stdio: 'pipe' },
  );
  if (probe.status !== 0) {
    step('building native addons (better-sqlite3, argon2) from source');
    run(npm, ['rebuild', 'better-sqlite3', 'argon2']);
  }
}

/** Installs Debian packages and starts PostgreSQL and Redis when they are missing (tests need them). */
function ensureSystem() {
  step('checking system parts (chromium, language toolchains, PostgreSQL, Redis)');
  run('bash', [path.join(root, 'scripts', 'ensure-system.sh')]);
}

function build() {
  step('building');
  run(npm, ['run', 'build']);
}

if (mode === 'start') {
  ensurePackages();
  build();
  step('starting');
  const server = spawn(process.execPath, [path.join(root, 'packages', 'server', 'dist', 'main.js')], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
} else if (mode === 'test') {
  ensurePackages();
  ensureSystem();
  step('format, lint and type checks');
  run(npm, ['run', 'check']);
  build();
  step('unit and integration tests (SQLite and PostgreSQL)');
  run(npm, ['run', 'test:unit']);
  step('browser journeys (Chromium)');
  run(npm, ['run', 'test:e2e']);
} else {
  process.stderr.write('usage: node scripts/bootstrap.mjs start|test\n');
  process.exit(2);
}
