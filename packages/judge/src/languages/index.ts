import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LANGUAGES, LANGUAGE_TEMPLATES } from '@examhall/contract';
import type { LanguageId } from '@examhall/contract';

/** Settings that depend on the task, passed to a language's run command. */
export interface RunContext {
  /** Memory limit of the run. */
  memoryMb: number;
}

/** How to compile a language inside the box. */
export interface CompileStep {
  /** Shell command run in /box with the source in place; only fixed file names, never user input. */
  command: string;
  /** The one file the compile leaves in /box and every run gets read-only. */
  artifact: string;
}

/** Everything the judge knows about one language. */
export interface LanguageSpec {
  id: LanguageId;
  /** Name shown to candidates (from the contract). */
  name: string;
  /** Editor mode (from the contract). */
  mode: string;
  /** Starter template (from the contract). */
  template: string;
  /** File name of the source in /box. */
  source: string;
  /** Debian packages that provide the toolchain; empty for Julia and Dart (not in Debian 12). */
  packages: string[];
  /** The toolchain's main binary; looked up in /usr/local/bin and /usr/bin. */
  binary: string;
  /** Arguments that make the binary print its version (the probe). */
  versionArgs: string[];
  compile?: CompileStep;
  /** argv in the box; argv[0] is absolute. */
  run(ctx: RunContext): string[];
  /** Extra environment for compile and run. */
  env?: Record<string, string>;
  /** Processes plus threads the runtime needs (JVM, Go, Mono and Node start many threads). */
  processes?: number;
  /** False for runtimes that reserve much more address space than they use. */
  addressSpaceLimit?: boolean;
  /** Rewrites the source before judging (see basic). */
  prepareSource?(source: string): string;
  /** The source is the answer itself (plaintext): nothing runs. */
  literal?: boolean;
}

const contract = new Map(LANGUAGES.map((l) => [l.id as LanguageId, l]));

type Entry = Omit<LanguageSpec, 'name' | 'mode' | 'template'>;

const native = (): string[] => ['/box/main'];

// One entry per contract language; the editor mode and template are read from the contract.
const ENTRIES: readonly Entry[] = [
  {
    id: 'c',
    source: 'main.c',
    packages: ['gcc'],
    binary: 'gcc',
    versionArgs: ['--version'],
    compile: { command: 'gcc -O2 -std=gnu17 -pipe -o main main.c -lm', artifact: 'main' },
    run: native,
  },
  {
    id: 'cpp',
    source: 'main.cpp',
    packages: ['g++'],
    binary: 'g++',
    versionArgs: ['--version'],
    compile: { command: 'g++ -O2 -std=gnu++17 -pipe -o main main.cpp', artifact: 'main' },
    run: native,
  },
  {
    id: 'java',
    source: 'Main.java',
    packages: ['default-jdk-headless'],
    binary: 'javac',
    versionArgs: ['-version'],
    // One artifact file per language keeps the cache a flat content-addressed store, hence the jar.
    compile: {
      command:
        'javac -J-Xmx512m -J-XX:+UseSerialGC -encoding UTF-8 -d cls Main.java && jar -J-Xmx256m -J-XX:+UseSerialGC cf main.jar -C cls .',
      artifact: 'main.jar',
    },
    run: ({ memoryMb }) => [
      '/usr/bin/java',
      '-XX:+UseSerialGC',
      `-Xmx${memoryMb}m`,
      '-Xss64m',
      '-XX:TieredStopAtLevel=1',
      '-cp',
      '/box/main.jar',
      'Main',
    ],
    processes: 128,
    addressSpaceLimit: false,
  },
  {
    id: 'python',
    source: 'main.py',
    packages: ['python3'],
    binary: '/usr/bin/python3',
    versionArgs: ['--version'],
    run: () => ['/usr/bin/python3', '/box/main.py'],
  },
  {
    id: 'php',
    source: 'main.php',
    packages: ['php-cli'],
    binary: '/usr/bin/php',
    versionArgs: ['--version'],
    run: () => ['/usr/bin/php', '/box/main.php'],
  },
  {
    id: 'javascript',
    source: 'main.js',
    packages: [],
    binary: process.execPath,
    versionArgs: ['--version'],
    run: () => [process.execPath, '/box/main.js'],
    processes: 64,
    addressSpaceLimit: false,
  },
  {
    id: 'go',
    source: 'main.go',
    packages: ['golang-go'],
    binary: 'go',
    versionArgs: ['version'],
    compile: { command: 'go build -o main main.go', artifact: 'main' },
    env: { GOCACHE: '/tmp/go-cache', GOPATH: '/tmp/go', GO111MODULE: 'off', GOFLAGS: '-buildvcs=false' },
    run: native,
    processes: 64,
    addressSpaceLimit: false,
  },
  {
    id: 'csharp',
    source: 'main.cs',
    packages: ['mono-mcs', 'mono-runtime'],
    binary: 'mcs',
    versionArgs: ['--version'],
    compile: { command: 'mcs -optimize+ -nologo -out:main.exe main.cs', artifact: 'main.exe' },
    run: () => ['/usr/bin/mono', '/box/main.exe'],
    processes: 64,
    addressSpaceLimit: false,
  },
  {
    id: 'ruby',
    source: 'main.rb',
    packages: ['ruby'],
    binary: '/usr/bin/ruby',
    versionArgs: ['--version'],
    run: () => ['/usr/bin/ruby', '/box/main.rb'],
  },
  {
    id: 'rust',
    source: 'main.rs',
    packages: ['rustc'],
    binary: 'rustc',
    versionArgs: ['--version'],
    compile: { command: 'rustc -O --edition 2021 -o main main.rs', artifact: 'main' },
    run: native,
  },
  {
    id: 'haskell',
    source: 'main.hs',
    packages: ['ghc'],
    binary: 'ghc',
    versionArgs: ['--version'],
    compile: { command: 'ghc -O -v0 -outputdir /tmp/ghc -o main main.hs', artifact: 'main' },
    run: native,
    addressSpaceLimit: false,
  },
  {
    id: 'pascal',
    source: 'main.pas',
    packages: ['fp-compiler', 'fp-units-base'],
    binary: 'fpc',
    versionArgs: ['-iV'],
    compile: { command: 'fpc -O2 -vew -omain main.pas', artifact: 'main' },
    run: native,
  },
  {
    id: 'basic',
    source: 'main.bas',
    packages: ['yabasic'],
    binary: '/usr/bin/yabasic',
    versionArgs: ['--version'],
    run: () => ['/usr/bin/yabasic', '/box/main.bas'],
    // yabasic prints a "?" prompt for INPUT without a prompt string, which would spoil every
    // answer; an empty prompt string keeps stdout to what the program prints.
    prepareSource: (source) => source.replace(/^(\s*(?:line\s+)?input)(\s+)(?![\s"#])/gim, '$1$2"" '),
  },
  {
    id: 'plaintext',
    source: 'answer.txt',
    packages: [],
    binary: process.execPath,
    versionArgs: ['--version'],
    run: () => [],
    literal: true,
  },
  {
    id: 'perl',
    source: 'main.pl',
    packages: ['perl'],
    binary: '/usr/bin/perl',
    versionArgs: ['-v'],
    run: () => ['/usr/bin/perl', '/box/main.pl'],
  },
  {
    id: 'bash',
    source: 'main.sh',
    packages: ['bash'],
    binary: '/bin/bash',
    versionArgs: ['--version'],
    run: () => ['/bin/bash', '/box/main.sh'],
  },
  {
    id: 'coffeescript',
    source: 'main.coffee',
    packages: ['coffeescript'],
    binary: 'coffee',
    versionArgs: ['--version'],
    compile: { command: 'coffee --no-header -c main.coffee', artifact: 'main.js' },
    run: () => [process.execPath, '/box/main.js'],
    processes: 64,
    addressSpaceLimit: false,
  },
  {
    id: 'julia',
    source: 'main.jl',
    packages: [],
    binary: 'julia',
    versionArgs: ['--version'],
    run: () => ['/usr/bin/env', 'julia', '--startup-file=no', '--history-file=no', '/box/main.jl'],
    env: { JULIA_DEPOT_PATH: '/tmp/julia' },
    processes: 128,
    addressSpaceLimit: false,
  },
  {
    id: 'dart',
    source: 'main.dart',
    packages: [],
    binary: 'dart',
    versionArgs: ['--version'],
    run: () => ['/usr/bin/env', 'dart', '--disable-analytics', 'run', '/box/main.dart'],
    env: { PUB_CACHE: '/tmp/pub-cache' },
    processes: 128,
    addressSpaceLimit: false,
  },
  {
    id: 'lua',
    source: 'main.lua',
    packages: ['lua5.4'],
    binary: '/usr/bin/lua5.4',
    versionArgs: ['-v'],
    run: () => ['/usr/bin/lua5.4', '/box/main.lua'],
  },
  {
    id: 'ocaml',
    source: 'main.ml',
    packages: ['ocaml-nox'],
    binary: 'ocamlopt',
    versionArgs: ['-version'],
    compile: { command: 'ocamlopt -o main main.ml', artifact: 'main' },
    run: native,
  },
];

/** The registry: one entry per contract language, in contract order. */
export const LANGUAGE_SPECS: ReadonlyMap<LanguageId, LanguageSpec> = new Map(
  LANGUAGES.map((l) => {
    const entry = ENTRIES.find((e) => e.id === l.id);
    if (!entry) throw new Error(`judge registry lacks language ${l.id}`);
    const info = contract.get(l.id)!;
    return [l.id, { ...entry, name: info.name, mode: info.mode, template: LANGUAGE_TEMPLATES[l.id] }];
  }),
);

/** The registry entry of a language id. */
export function languageSpec(id: LanguageId): LanguageSpec {
  const spec = LANGUAGE_SPECS.get(id);
  if (!spec) throw new Error(`unknown language ${id}`);
  return spec;
}

/** Whether a toolchain can be used on this host. */
export interface Availability {
  available: boolean;
  /** Resolved binary, when found. */
  path?: string;
  /** First line of its version output. */
  version?: string;
  /** Why not, e.g. "toolchain not installed on this host". */
  reason?: string;
  /** Host directories outside /usr the toolchain lives in (bound read-only into boxes). */
  toolDirs: string[];
}

const SEARCH = ['/usr/local/bin', '/usr/bin', '/bin'];
const probes = new Map<LanguageId, Promise<Availability>>();

async function findBinary(binary: string): Promise<string | undefined> {
  const candidates = binary.startsWith('/') ? [binary] : SEARCH.map((d) => `${d}/${binary}`);
  for (const c of candidates) {
    try {
      await access(c, constants.X_OK);
      return c;
    } catch {
      // try the next directory
    }
  }
  return undefined;
}

async function probe(spec: LanguageSpec): Promise<Availability> {
  const found = await findBinary(spec.binary);
  const hint = spec.packages.length ? ` (apt-get install ${spec.packages.join(' ')})` : '';
  if (!found) return { available: false, reason: `toolchain not installed on this host${hint}`, toolDirs: [] };
  const real = realpathSync(found);
  // A toolchain unpacked outside /usr (e.g. /opt/julia-1.11 linked from /usr/local/bin) must be
  // visible in the box at the same path.
  const toolDirs = real.startsWith('/usr/') ? [] : [dirname(dirname(real))];
  return new Promise((resolve) => {
    execFile(
      found,
      spec.versionArgs,
      { timeout: 20_000, env: { PATH: SEARCH.join(':'), HOME: '/tmp' } },
      (err, stdout, stderr) => {
        const version = `${stdout}${stderr}`.trim().split('\n')[0] ?? '';
        if (err)
          resolve({
            available: false,
            path: found,
            reason: `toolchain present but not runnable: ${err.message}`,
            toolDirs,
          });
        else resolve({ available: true, path: found, version, toolDirs });
      },
    );
  });
}

/** Probes a language's toolchain (binary present and runnable); cached per process. */
export function availability(id: LanguageId): Promise<Availability> {
  let p = probes.get(id);
  if (!p) {
    p = probe(languageSpec(id));
    probes.set(id, p);
  }
  return p;
}

/** Forgets probe results, e.g. after installing a toolchain. */
export function resetProbes(): void {
  probes.clear();
}

/** The registry with availability, as printed by `examhall-judge languages`. */
export async function describeLanguages(): Promise<
  {
    id: LanguageId;
    name: string;
    mode: string;
    packages: string[];
    compiled: boolean;
    available: boolean;
    version?: string;
    reason?: string;
  }[]
> {
  return Promise.all(
    [...LANGUAGE_SPECS.values()].map(async (spec) => {
      const a = await availability(spec.id);
      return {
        id: spec.id,
        name: spec.name,
        mode: spec.mode,
        packages: spec.packages,
        compiled: Boolean(spec.compile),
        available: a.available,
        ...(a.version ? { version: a.version } : {}),
        ...(a.reason ? { reason: a.reason } : {}),
      };
    }),
  );
}
