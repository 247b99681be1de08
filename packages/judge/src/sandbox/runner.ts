import { buildOnce } from './helper.js';

/*
 * The in-box runner of a persistent box (box.ts). bubblewrap starts it as the box's pid 1, keeping
 * only CAP_SYS_ADMIN of the box's own user namespace; it then runs one program per case, so a task's
 * cases share the expensive parts of a box (user and network namespaces, the bubblewrap setup, the
 * cgroups) but nothing a program could use to reach the next case:
 *
 * - each case runs in a new mount and IPC namespace with fresh tmpfs /box, /tmp and /dev/shm, the
 *   task's files bound read-only into /box, /dev and the staging directory read-only;
 * - the program has no capabilities at all (ambient, bounding, effective and permitted cleared) and
 *   no_new_privs from the launcher; the runner is not dumpable, so the program can neither ptrace it
 *   nor open its /proc entries, and as pid 1 it ignores every signal the program can send;
 * - after the program exits (or passes a limit), kill(-1, SIGKILL) from pid 1 ends every other
 *   process of the box, the runner reaps them all, and the uid's keyrings are cleared;
 * - per case: RLIMIT_CPU, a wall-time limit, a stdout cap (more is "output") and a stderr cap.
 *
 * Protocol. Host -> runner (fd 0), per case: "cpu_ms wall_ms out_cap err_cap input_len\n" then
 * input_len bytes of standard input. Runner -> host (fd 1): frames of one type byte and a 32-bit
 * little-endian length: 'O' stdout, 'E' stderr, 'D' the case's end as text
 * "outcome exited code signal wall_us" with outcome ok | wall | output | error.
 * argv: runner BOX_BYTES NFILES (STAGED BOXPATH)* -- PROGRAM ARGS...
 */
export const RUNNER_SOURCE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KEYCTL_CLEAR 7
#define KEY_SPEC_USER_KEYRING -4
#define KEY_SPEC_USER_SESSION_KEYRING -5

static void fail(const char *what) {
  fprintf(stderr, "runner: %s: %s\n", what, strerror(errno));
  exit(120);
}

static int write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += n;
    len -= n;
  }
  return 0;
}

static void frame(char type, const void *data, unsigned len) {
  unsigned char head[5] = {(unsigned char)type, len & 255, (len >> 8) & 255, (len >> 16) & 255, (len >> 24) & 255};
  if (write_all(1, head, 5) != 0 || write_all(1, data, len) != 0) exit(0);
}

static char inbuf[65536];
static size_t inpos = 0, inlen = 0;

static int next_byte(void) {
  if (inpos == inlen) {
    ssize_t n;
    do n = read(0, inbuf, sizeof inbuf); while (n < 0 && errno == EINTR);
    if (n <= 0) return -1;
    inpos = 0;
    inlen = n;
  }
  return (unsigned char)inbuf[inpos++];
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Remounts a mount read-only, keeping the flags the user namespace may not clear. */
static int remount_ro(const char *path) {
  struct statvfs s;
  if (statvfs(path, &s) != 0) return -1;
  unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
  if (s.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (s.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (s.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (s.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (s.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (s.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return mount(NULL, path, NULL, flags, NULL);
}

static int make_parents(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    int r = mkdir(path, 0755);
    *p = '/';
    if (r != 0 && errno != EEXIST) return -1;
  }
  return 0;
}

static int drop_caps(void) {
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) return -1;
  for (int c = 0; c <= 63; c++)
    if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) != 0 && errno != EINVAL) return -1;
  struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct d[2];
  memset(d, 0, sizeof d);
  return (int)syscall(SYS_capset, &h, d);
}

int main(int argc, char **argv) {
  if (argc < 4) { errno = EINVAL; fail("usage"); }
  unsigned long long box_bytes = strtoull(argv[1], NULL, 10);
  int nfiles = atoi(argv[2]);
  if (argc < 4 + 2 * nfiles || strcmp(argv[3 + 2 * nfiles], "--") != 0) { errno = EINVAL; fail("usage"); }
  char **files = argv + 3;
  char **prog = argv + 4 + 2 * nfiles;
  char tmpfs_opts[64];
  snprintf(tmpfs_opts, sizeof tmpfs_opts, "size=%llu,mode=0755", box_bytes);
  /* Not dumpable: the program may not ptrace the runner or open its /proc entries. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) fail("dumpable");
  signal(SIGPIPE, SIG_IGN);
  for (;;) {
    char line[128];
    size_t n = 0;
    int c;
    while ((c = next_byte()) >= 0 && c != '\n' && n + 1 < sizeof line) line[n++] = (char)c;
    if (c < 0) return 0;
    line[n] = 0;
    unsigned long long cpu_ms, wall_ms, out_cap, err_cap, input_len;
    if (sscanf(line, "%llu %llu %llu %llu %llu", &cpu_ms, &wall_ms, &out_cap, &err_cap, &input_len) != 5) {
      errno = EINVAL;
      fail("case header");
    }
    int in = memfd_create("stdin", MFD_CLOEXEC);
    if (in < 0) fail("memfd");
    for (unsigned long long left = input_len; left > 0;) {
      if (inpos == inlen) {
        ssize_t r = read(0, inbuf, sizeof inbuf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        inpos = 0;
        inlen = r;
      }
      size_t take = inlen - inpos < left ? inlen - inpos : left;
      if (write_all(in, inbuf + inpos, take) != 0) fail("stdin");
      inpos += take;
      left -= take;
    }
    if (lseek(in, 0, SEEK_SET) != 0) fail("lseek");
    int out[2], err[2], ex[2];
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(ex, O_CLOEXEC)) fail("pipe");
    double started = now_us();
    pid_t pid = fork();
    if (pid < 0) fail("fork");
    if (pid == 0) {
      int e = 0;
      const char *step = "namespaces";
      if (unshare(CLONE_NEWNS | CLONE_NEWIPC) != 0) goto bad;
      step = "mounts";
      if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) goto bad;
      if (mount("tmpfs", "/box", "tmpfs", MS_NOSUID | MS_NODEV, tmpfs_opts) != 0) goto bad;
      if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, tmpfs_opts) != 0) goto bad;
      if (mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, tmpfs_opts) != 0) goto bad;
      if (remount_ro("/dev") != 0) goto bad;
      for (int i = 0; i < nfiles; i++) {
        char *target = files[2 * i + 1];
        if (make_parents(target) != 0) goto bad;
        int fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0444);
        if (fd < 0) goto bad;
        close(fd);
        if (mount(files[2 * i], target, NULL, MS_BIND, NULL) != 0) goto bad;
        if (remount_ro(target) != 0) goto bad;
      }
      if (mount("tmpfs", "/.judge", "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "size=4k,mode=0555") != 0) goto bad;
      step = "chdir";
      if (chdir("/box") != 0) goto bad;
      step = "stdio";
      if (dup2(in, 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0) goto bad;
      step = "limits";
      struct rlimit cpu = {cpu_ms / 1000 + 1, cpu_ms / 1000 + 2};
      if (setrlimit(RLIMIT_CPU, &cpu) != 0) goto bad;
      step = "capabilities";
      if (drop_caps() != 0) goto bad;
      step = "exec";
      execv(prog[0], prog);
    bad:
      e = errno;
      dprintf(ex[1], "%s: %s", step, strerror(e));
      _exit(121);
    }
    close(in);
    close(out[1]);
    close(err[1]);
    close(ex[1]);
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) fail("pidfd_open");
    const char *outcome = "ok";
    unsigned long long out_n = 0, err_n = 0;
    int status = 0, reaped = 0, out_open = 1, err_open = 1, killed = 0;
    static char buf[65536];
    double deadline = started + wall_ms * 1000.0;
    while (out_open || err_open || !reaped) {
      struct pollfd p[3] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? err[0] : -1, POLLIN, 0},
                            {reaped ? -1 : pidfd, POLLIN, 0}};
      /* Once killing, kill again every 10 ms: kill(-1) may miss a child forked during the sweep. */
      int timeout = 10;
      if (!killed) {
        double left = deadline - now_us();
        timeout = left <= 0 ? 0 : (int)(left / 1000) + 1;
      }
      int r = poll(p, 3, timeout);
      if (r < 0 && errno != EINTR) fail("poll");
      if (r == 0) {
        if (!killed) outcome = "wall";
        kill(-1, SIGKILL);
        killed = 1;
        continue;
      }
      if (p[0].revents) {
        ssize_t k = read(out[0], buf, sizeof buf);
        if (k <= 0) out_open = 0;
        else if (!killed || strcmp(outcome, "output") != 0) {
          if (out_n + k > out_cap) {
            if (out_cap > out_n) frame('O', buf, out_cap - out_n);
            out_n = out_cap;
            outcome = "output";
            kill(-1, SIGKILL);
            killed = 1;
          } else {
            frame('O', buf, k);
            out_n += k;
          }
        }
      }
      if (p[1].revents) {
        ssize_t k = read(err[0], buf, sizeof buf);
        if (k <= 0) err_open = 0;
        else if (err_n < err_cap) {
          unsigned take = err_n + k > err_cap ? err_cap - err_n : k;
          frame('E', buf, take);
          err_n += take;
        }
      }
      if (!reaped && p[2].revents) {
        if (waitpid(pid, &status, 0) == pid) reaped = 1;
        /* Whatever the program left behind dies with it, so the pipes reach their end. */
        kill(-1, SIGKILL);
        killed = 1;
      }
    }
    double wall_us = now_us() - started;
    /* Nothing of this case may outlive it: kill and reap until no process but the runner is left. */
    for (;;) {
      kill(-1, SIGKILL);
      pid_t w;
      while ((w = waitpid(-1, NULL, WNOHANG)) > 0) {
      }
      if (w < 0 && errno == ECHILD) break;
      usleep(1000);
    }
    char exmsg[256];
    ssize_t exn = read(ex[0], exmsg, sizeof exmsg - 1);
    close(ex[0]);
    close(out[0]);
    close(err[0]);
    close(pidfd);
    syscall(SYS_keyctl, KEYCTL_CLEAR, KEY_SPEC_USER_KEYRING);
    syscall(SYS_keyctl, KEYCTL_CLEAR, KEY_SPEC_USER_SESSION_KEYRING);
    char done[400];
    int len;
    if (exn > 0) {
      exmsg[exn] = 0;
      len = snprintf(done, sizeof done, "error 0 -1 0 %.0f %s", wall_us, exmsg);
    } else {
      len = snprintf(done, sizeof done, "%s %d %d %d %.0f", outcome, WIFEXITED(status) ? 1 : 0,
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
                     wall_us);
    }
    frame('D', done, len);
  }
}
`;

/** Path of the compiled in-box runner. */
export function boxRunner(stateDir: string): Promise<string> {
  return buildOnce(stateDir, 'boxrun', RUNNER_SOURCE);
}
