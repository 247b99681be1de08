import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

/*
 * The privileged launcher of one box. Node cannot set rlimits, join a cgroup or change uid between
 * fork and exec, and a shell chain (sh + prlimit + setpriv) costs three extra execs per run, so this
 * small C program does exactly that and then reports the rusage of the whole tree on fd 3.
 * It closes every descriptor above the ones the judge passed on purpose.
 * Order matters: join the cgroups and set the limits while still root, then drop to the box uid
 * (so RLIMIT_NPROC binds: it never binds uid 0), set no_new_privs, and only then exec bubblewrap.
 * Its rusage report is only a fallback for hosts without cgroups: bubblewrap's monitor exits
 * without reaping the box's pid 1, so the program's own usage never reaches wait4() here.
 */
const SOURCE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what) {
  dprintf(3, "{\"error\":\"%s: %s\"}\n", what, strerror(errno));
  _exit(120);
}

static void limit(int resource, unsigned long long soft, unsigned long long hard) {
  struct rlimit r = {soft, hard};
  if (setrlimit(resource, &r) != 0) die("setrlimit");
}

int main(int argc, char **argv) {
  unsigned long long uid = 0, gid = 0, keep = 3;
  pid_t parent = getppid();
  int i;
  if (fcntl(3, F_SETFD, FD_CLOEXEC) != 0) die("status fd");
  for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq) { errno = EINVAL; die("option"); }
    *eq = 0;
    const char *key = argv[i], *val = eq + 1;
    unsigned long long n = strtoull(val, NULL, 10);
    if (!strcmp(key, "cg")) {
      int fd = open(val, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0) die("open cgroup");
      char buf[32];
      int len = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
      if (write(fd, buf, len) != len) die("join cgroup");
      close(fd);
    } else if (!strcmp(key, "keep")) keep = n;
    else if (!strcmp(key, "uid")) uid = n;
    else if (!strcmp(key, "gid")) gid = n;
    else if (!strcmp(key, "cpu")) limit(RLIMIT_CPU, n, n + 1);
    else if (!strcmp(key, "fsize")) limit(RLIMIT_FSIZE, n, n);
    else if (!strcmp(key, "nofile")) limit(RLIMIT_NOFILE, n, n);
    else if (!strcmp(key, "nproc")) limit(RLIMIT_NPROC, n, n);
    else if (!strcmp(key, "as")) limit(RLIMIT_AS, n, n);
    else if (!strcmp(key, "stack")) limit(RLIMIT_STACK, n, n);
    else { errno = EINVAL; die(key); }
  }
  if (i + 1 >= argc) { errno = EINVAL; die("no command"); }
  if (uid == 0 || gid == 0) { errno = EPERM; die("box uid must not be root"); }
  limit(RLIMIT_CORE, 0, 0);
  /* Only the pipes the judge passed (0-2, the report on 3, the artifact on 4) reach the box: a
     descriptor the judge inherited without close-on-exec must not. */
  if (syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0) != 0) {
    for (int fd = (int)keep + 1; fd < 65536; fd++) close(fd);
  }
  if (setgroups(0, NULL) != 0) die("setgroups");
  if (setresgid(gid, gid, gid) != 0) die("setresgid");
  if (setresuid(uid, uid, uid) != 0) die("setresuid");
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("no_new_privs");
  /* A judge killed with SIGKILL cannot enforce wall time any more: take the box down with it.
     Set after setresuid, which clears the parent-death signal. */
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) die("pdeathsig");
  if (getppid() != parent) _exit(122);
  pid_t child = fork();
  if (child < 0) die("fork");
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execv(argv[i + 1], argv + i + 1);
    dprintf(3, "{\"error\":\"exec: %s\"}\n", strerror(errno));
    _exit(121);
  }
  int status;
  struct rusage ru;
  while (wait4(child, &status, 0, &ru) < 0) {
    if (errno != EINTR) die("wait4");
  }
  long long cpu_us = (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
                     (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
  dprintf(3, "{\"exited\":%d,\"code\":%d,\"signal\":%d,\"cpu_us\":%lld,\"maxrss_kb\":%ld}\n",
          WIFEXITED(status) ? 1 : 0, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
          WIFSIGNALED(status) ? WTERMSIG(status) : 0, cpu_us, ru.ru_maxrss);
  return 0;
}
`;

const builds = new Map<string, Promise<string>>();

/** Path of the compiled launcher, built once per state dir and source version with the host's cc. */
export function boxHelper(stateDir: string): Promise<string> {
  return buildOnce(stateDir, 'boxexec', SOURCE);
}

/** Builds a small C program of the sandbox once per state dir and source version with the host's cc. */
export function buildOnce(stateDir: string, name: string, source: string): Promise<string> {
  const key = `${stateDir}\0${name}`;
  let built = builds.get(key);
  if (!built) {
    built = buildProgram(stateDir, name, source).catch((err: unknown) => {
      builds.delete(key);
      throw err;
    });
    builds.set(key, built);
  }
  return built;
}

async function buildProgram(stateDir: string, name: string, source: string): Promise<string> {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = join(stateDir, 'bin');
  const target = join(dir, `${name}-${hash}`);
  try {
    const s = await stat(target);
    if (s.isFile() && s.uid === process.getuid?.()) return target;
  } catch {
    // not built yet
  }
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const src = join(dir, `${name}-${hash}-${process.pid}.c`);
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(src, source, { mode: 0o600 });
  try {
    await execFileP('cc', ['-O2', '-Wall', '-o', tmp, src], { timeout: 60_000 });
  } catch (err) {
    throw new Error(`cannot build the sandbox ${name} with cc (install gcc): ${(err as Error).message}`);
  }
  await unlink(src).catch(() => undefined);
  await chmod(tmp, 0o755);
  // rename is atomic: concurrent processes building the same program never see a partial file.
  await rename(tmp, target);
  return target;
}
