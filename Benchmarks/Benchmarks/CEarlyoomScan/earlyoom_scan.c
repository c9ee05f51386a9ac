// SPDX-License-Identifier: MIT
//
// earlyoom's /proc scan, copied from rfjakob/earlyoom (https://github.com/rfjakob/earlyoom) at
// v1.9.0-9-g5c3e3ea: find_largest_process(), is_larger(), fill_informative_fields() and
// isnumeric() from kill.c; parse_proc_pid_stat_buf() and parse_proc_pid_stat() from
// proc_pid.c; read_proc_file_integer(), get_oom_score(), get_oom_score_adj(), get_comm(),
// get_cmdline() and get_uid() from meminfo.c; fix_truncated_utf8() from msg.c. The function
// bodies are unchanged; only what the scan does not reach is left out (killing, notifications,
// the poll loop), debug() is compiled out as with earlyoom's default enable_debug = 0, and
// warn()/fatal() print to stderr as earlyoom's do.
//
// The MIT License (MIT)
//
// Copyright (c) 2014 Jakob Unterwurzacher
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "earlyoom_scan.h"

// ---- globals.c, meminfo.h, proc_pid.h, kill.h (the parts the scan uses) ----

static int enable_debug = 0;
static const char* procdir_path = "/proc";

#define PATH_LEN 256
#define PROCINFO_FIELD_NOT_SET -9999
#define OOM_SCORE_PREFER 300
#define OOM_SCORE_AVOID -300
#define VMRSS_PREFER 3145728
#define VMRSS_AVOID -3145728

typedef struct {
    char state;
    int ppid;
    long num_threads;
    long rss;
} pid_stat_t;

typedef struct procinfo {
    int pid;
    int uid;
    int oom_score;
    int oom_score_adj;
    long long VmRSSkiB;
    pid_stat_t stat;
    char name[PATH_LEN];
    char cmdline[PATH_LEN];
} procinfo_t;

typedef struct {
    bool ignore_root_user;
    bool sort_by_rss;
    regex_t* prefer_regex;
    regex_t* avoid_regex;
    regex_t* ignore_regex;
} poll_loop_args_t;

// ---- msg.c ----

#define debug(...)                   \
    do {                             \
        if (enable_debug)            \
            fprintf(stderr, __VA_ARGS__); \
    } while (0)

static int warn(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vfprintf(stderr, fmt, args);
    va_end(args);
    return n;
}

static void fatal(int code, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    exit(code);
}

// Tested in unit_test.go: Test_fix_truncated_utf8()
static void fix_truncated_utf8(char* str)
{
    size_t len = strlen(str);
    if (len < 3) {
        return;
    }
    // We only need to look at the last three bytes
    char* b = str + len - 3;
    // Last byte is ascii
    if ((b[2] & 0x80) == 0) {
        return;
    }
    // Last byte is multi-byte sequence start
    if (b[2] & 0x40) {
        b[2] = 0;
    }
    // Truncated 3-byte sequence
    else if ((b[1] & 0xe0) == 0xe0) {
        b[1] = 0;
        // Truncated 4-byte sequence
    } else if ((b[0] & 0xf0) == 0xf0) {
        b[0] = 0;
    }
}

// ---- proc_pid.c ----

static bool parse_proc_pid_stat_buf(pid_stat_t* out, char* buf)
{
    char* closing_bracket = strrchr(buf, ')');
    if (!closing_bracket) {
        return false;
    }
    // If the string ends (i.e. has a null byte) after the closing bracket: bail out.
    if (!closing_bracket[1]) {
        return false;
    }
    // Because of the check above, there must be at least one more byte at
    // closing_bracket[2] (possibly a null byte, but sscanf will handle that).
    char* state_field = &closing_bracket[2];
    int ret = sscanf(state_field,
        "%c " // state
        "%d %*d %*d %*d %*d " // ppid, pgrp, sid, tty_nr, tty_pgrp
        "%*u %*u %*u %*u %*u " // flags, min_flt, cmin_flt, maj_flt, cmaj_flt
        "%*u %*u %*u %*u " // utime, stime, cutime, cstime
        "%*d %*d " // priority, nice
        "%ld " // num_threads
        "%*d %*d %*d" // itrealvalue, starttime, vsize
        "%ld ", // rss
        &out->state,
        &out->ppid,
        &out->num_threads,
        &out->rss);
    if (ret != 4) {
        return false;
    };
    return true;
};

// Read and parse /proc/$pid/stat. Returns true on success, false on error.
static bool parse_proc_pid_stat(pid_stat_t* out, int pid)
{
    // Largest /proc/*/stat file here is 363 bytes acc. to:
    //   wc -c /proc/*/stat | sort
    // 512 seems safe given that we only need the first 20 fields.
    char buf[512] = { 0 };

    // Read /proc/$pid/stat
    snprintf(buf, sizeof(buf), "%s/%d/stat", procdir_path, pid);
    FILE* f = fopen(buf, "r");
    if (f == NULL) {
        // Process is gone - good.
        return false;
    }
    memset(buf, 0, sizeof(buf));

    // File content looks like this:
    // 10751 (cat) R 2663 10751 2663[...]
    // File may be bigger than 256 bytes, but we only need the first 20 or so.
    int len = (int)fread(buf, 1, sizeof(buf) - 1, f);
    bool read_error = ferror(f) || len == 0;
    fclose(f);
    if (read_error) {
        warn("%s: fread failed: %s\n", __func__, strerror(errno));
        return false;
    }
    // Terminate string at end of data
    buf[len] = 0;
    return parse_proc_pid_stat_buf(out, buf);
}

// ---- meminfo.c ----

/* Read /proc/[pid]/[name] and convert to integer.
 * As the value may legitimately be < 0 (think oom_score_adj),
 * it is stored in the `out` pointer, and the return value is either
 * 0 (success) or -errno (failure).
 */
static int read_proc_file_integer(const int pid, const char* name, int* out)
{
    char path[PATH_LEN] = { 0 };
    snprintf(path, sizeof(path), "%s/%d/%s", procdir_path, pid, name);
    FILE* f = fopen(path, "r");
    if (f == NULL) {
        return -errno;
    }
    int matches = fscanf(f, "%d", out);
    fclose(f);
    if (matches != 1) {
        return -ENODATA;
    }
    return 0;
}

/* Read /proc/[pid]/oom_score.
 * Returns the value (>= 0) or -errno on error.
 */
static int get_oom_score(const int pid)
{
    int out = 0;
    int res = read_proc_file_integer(pid, "oom_score", &out);
    if (res < 0) {
        return res;
    }
    return out;
}

/* Read /proc/[pid]/oom_score_adj.
 * As the value may legitimately be negative, the return value is
 * only used for error indication, and the value is stored in
 * the `out` pointer.
 * Returns 0 on success and -errno on error.
 */
static int get_oom_score_adj(const int pid, int* out)
{
    return read_proc_file_integer(pid, "oom_score_adj", out);
}

/* Read /proc/[pid]/comm (process name truncated to 16 bytes).
 * Returns 0 on success and -errno on error.
 */
static int get_comm(int pid, char* out, size_t outlen)
{
    char path[PATH_LEN] = { 0 };
    snprintf(path, sizeof(path), "%s/%d/comm", procdir_path, pid);
    FILE* f = fopen(path, "r");
    if (f == NULL) {
        return -errno;
    }
    size_t n = fread(out, 1, outlen - 1, f);
    if (ferror(f)) {
        int fread_errno = errno;
        perror("get_comm: fread() failed");
        fclose(f);
        return -fread_errno;
    }
    fclose(f);
    // Process name may be empty, but we should get at least a newline
    // Example for empty process name: perl -MPOSIX -e '$0=""; pause'
    if (n < 1) {
        return -ENODATA;
    }
    // Strip trailing space
    out[n - 1] = 0;
    fix_truncated_utf8(out);
    return 0;
}

/* Read /proc/[pid]/cmdline (process command line truncated to 256 bytes).
 * The null bytes are replaced by space.
 * Returns 0 on success and -errno on error.
 */
static int get_cmdline(int pid, char* out, size_t outlen)
{
    char path[PATH_LEN] = { 0 };
    snprintf(path, sizeof(path), "%s/%d/cmdline", procdir_path, pid);
    FILE* f = fopen(path, "r");
    if (f == NULL) {
        return -errno;
    }
    size_t n = fread(out, 1, outlen - 1, f);
    if (ferror(f)) {
        int fread_errno = errno;
        perror("get_cmdline: fread() failed");
        fclose(f);
        return -fread_errno;
    }
    fclose(f);
    /* replace null character with space */
    for (size_t i = 0; i < n; i++) {
        if (out[i] == '\0') {
            out[i] = ' ';
        }
    }
    // Strip trailing space
    out[n - 1] = 0;
    fix_truncated_utf8(out);
    return 0;
}

// Get the effective uid (EUID) of `pid`.
// Returns the uid (>= 0) or -errno on error.
static int get_uid(int pid)
{
    char path[PATH_LEN] = { 0 };
    snprintf(path, sizeof(path), "%s/%d", procdir_path, pid);
    struct stat st = { 0 };
    int res = stat(path, &st);
    if (res < 0) {
        return -errno;
    }
    return (int)st.st_uid;
}

// ---- kill.c ----

static bool isnumeric(char* str)
{
    int i = 0;

    // Empty string is not numeric
    if (str[0] == 0)
        return false;

    while (1) {
        if (str[i] == 0) // End of string
            return true;

        if (isdigit(str[i]) == 0)
            return false;

        i++;
    }
}

// is_larger finds out if the process with pid `cur->pid` uses more memory
// than our current `victim`.
// In the process, it fills the `cur` structure. It does so lazily, meaning
// it only fills the fields it needs to make a decision.
static bool is_larger(const poll_loop_args_t* args, const procinfo_t* victim, procinfo_t* cur)
{
    if (cur->pid <= 2) {
        // Let's not kill init or kthreadd.
        return false;
    }

    // Ignore processes owned by root user?
    if (args->ignore_root_user) {
        int res = get_uid(cur->pid);
        if (res < 0) {
            debug("%s: pid %d: error reading uid: %s\n", __func__, cur->pid, strerror(-res));
            return false;
        }
        cur->uid = res;

        if (cur->uid == 0) {
            return false;
        }
    }

    {
        bool res = parse_proc_pid_stat(&cur->stat, cur->pid);
        if (!res) {
            debug("%s: pid %d: error reading stat\n", __func__, cur->pid);
            return false;
        }
        const long page_size = sysconf(_SC_PAGESIZE);
        cur->VmRSSkiB = cur->stat.rss * page_size / 1024;
    }

    // A pid is a kernel thread if it's pid or ppid is 2.
    // At least that's what procs does:
    // https://github.com/warmchang/procps/blob/d173f5d6db746e3f252a6182aa1906a292fc200f/library/readproc.c#L1325
    //
    // The check for pid == 2 has already been done at the top.
    if (cur->stat.ppid == 2) {
        return false;
    }

    {
        int res = get_oom_score(cur->pid);
        if (res < 0) {
            debug("%s: pid %d: error reading oom_score: %s\n", __func__, cur->pid, strerror(-res));
            return false;
        }
        cur->oom_score = res;
    }

    if ((args->prefer_regex || args->avoid_regex || args->ignore_regex)) {
        int res = get_comm(cur->pid, cur->name, sizeof(cur->name));
        if (res < 0) {
            debug("%s: pid %d: error reading process name: %s\n", __func__, cur->pid, strerror(-res));
            return false;
        }
        if (args->prefer_regex && regexec(args->prefer_regex, cur->name, (size_t)0, NULL, 0) == 0) {
            if (args->sort_by_rss) {
                cur->VmRSSkiB += VMRSS_PREFER;
            } else {
                cur->oom_score += OOM_SCORE_PREFER;
            }
        }
        if (args->avoid_regex && regexec(args->avoid_regex, cur->name, (size_t)0, NULL, 0) == 0) {
            if (args->sort_by_rss) {
                cur->VmRSSkiB += VMRSS_AVOID;
            } else {
                cur->oom_score += OOM_SCORE_AVOID;
            }
        }
        if (args->ignore_regex && regexec(args->ignore_regex, cur->name, (size_t)0, NULL, 0) == 0) {
            return false;
        }
    }

    // find process with the largest rss
    if (args->sort_by_rss) {
        // Case 1: neither victim nor cur have rss=0 (zombie main thread).
        // This is the usual case.
        if (cur->VmRSSkiB > 0 && victim->VmRSSkiB > 0) {
            if (cur->VmRSSkiB < victim->VmRSSkiB) {
                return false;
            }
            if (cur->VmRSSkiB == victim->VmRSSkiB && cur->oom_score <= victim->oom_score) {
                return false;
            }
        }
        // Case 2: one (or both) have rss=0 (zombie main thread)
        else {
            if (cur->VmRSSkiB == 0) {
                // only print the warning when the zombie is first seen, i.e. as "cur"
                get_comm(cur->pid, cur->name, sizeof(cur->name));
                warn("%s: pid %d \"%s\": rss=0 but oom_score=%d. Zombie main thread? Using oom_score for this process.\n",
                    __func__, cur->pid, cur->name, cur->oom_score);
            }
            if (cur->oom_score < victim->oom_score) {
                return false;
            }
            if (cur->oom_score == victim->oom_score && cur->VmRSSkiB <= victim->VmRSSkiB) {
                return false;
            }
        }
    } else {
        /* find process with the largest oom_score */
        if (cur->oom_score < victim->oom_score) {
            return false;
        }

        if (cur->oom_score == victim->oom_score && cur->VmRSSkiB <= victim->VmRSSkiB) {
            return false;
        }
    }

    // Skip processes with oom_score_adj = -1000, like the
    // kernel oom killer would.
    {
        int res = get_oom_score_adj(cur->pid, &cur->oom_score_adj);
        if (res < 0) {
            debug("%s: pid %d: error reading oom_score_adj: %s\n", __func__, cur->pid, strerror(-res));
            return false;
        }
        if (cur->oom_score_adj == -1000) {
            return false;
        }
    }
    return true;
}

// Fill the fields in `cur` that are not required for the kill decision.
// Used to log details about the selected process.
static void fill_informative_fields(procinfo_t* cur)
{
    if (strlen(cur->name) == 0) {
        int res = get_comm(cur->pid, cur->name, sizeof(cur->name));
        if (res < 0) {
            debug("%s: pid %d: error reading process name: %s\n", __func__, cur->pid, strerror(-res));
        }
    }
    if (strlen(cur->cmdline) == 0) {
        int res = get_cmdline(cur->pid, cur->cmdline, sizeof(cur->cmdline));
        if (res < 0) {
            debug("%s: pid %d: error reading process cmdline: %s\n", __func__, cur->pid, strerror(-res));
        }
    }
    if (cur->uid == PROCINFO_FIELD_NOT_SET) {
        int res = get_uid(cur->pid);
        if (res < 0) {
            debug("%s: pid %d: error reading uid: %s\n", __func__, cur->pid, strerror(-res));
        } else {
            cur->uid = res;
        }
    }
}

// debug_print_procinfo pretty-prints the process information in `cur`.
static void debug_print_procinfo(procinfo_t* cur)
{
    if (!enable_debug) {
        return;
    }
    fill_informative_fields(cur);
    debug("%5d %9d %7lld %5d %13d \"%s\"",
        cur->pid, cur->oom_score, cur->VmRSSkiB, cur->uid, cur->oom_score_adj, cur->name);
}

static void debug_print_procinfo_header()
{
    debug("  PID OOM_SCORE  RSSkiB   UID OOM_SCORE_ADJ  COMM\n");
}

/*
 * Find the process with the largest oom_score or rss(when flag --sort-by-rss is set).
 */
static procinfo_t find_largest_process(const poll_loop_args_t* args)
{
    DIR* procdir = opendir(procdir_path);
    if (procdir == NULL) {
        fatal(5, "%s: could not open /proc: %s", __func__, strerror(errno));
    }

    struct timespec t0 = { 0 }, t1 = { 0 };
    if (enable_debug) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
    }

    debug_print_procinfo_header();

    const procinfo_t empty_procinfo = {
        .pid = PROCINFO_FIELD_NOT_SET,
        .uid = PROCINFO_FIELD_NOT_SET,
        .oom_score = PROCINFO_FIELD_NOT_SET,
        .oom_score_adj = PROCINFO_FIELD_NOT_SET,
        .VmRSSkiB = PROCINFO_FIELD_NOT_SET,
        /* omitted fields are set to zero */
    };

    procinfo_t victim = empty_procinfo;
    while (1) {
        errno = 0;
        struct dirent* d = readdir(procdir);
        if (d == NULL) {
            if (errno != 0)
                warn("%s: readdir error: %s", __func__, strerror(errno));
            break;
        }

        // proc contains lots of directories not related to processes,
        // skip them
        if (!isnumeric(d->d_name))
            continue;

        procinfo_t cur = empty_procinfo;
        cur.pid = (int)strtol(d->d_name, NULL, 10);

        bool larger = is_larger(args, &victim, &cur);

        debug_print_procinfo(&cur);

        if (larger) {
            debug(" <--- new victim\n");
            victim = cur;
        } else {
            debug("\n");
        }
    }
    closedir(procdir);

    if (enable_debug) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long delta = (t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000;
        debug("selecting victim took %ld.%03ld ms\n", delta / 1000, delta % 1000);
    }

    if (victim.pid == getpid()) {
        warn("%s: selected myself (pid %d). Do you use hidpid? See https://github.com/rfjakob/earlyoom/wiki/proc-hidepid\n",
            __func__, victim.pid);
        // zero victim struct
        victim = (const procinfo_t) { 0 };
    }

    if (victim.pid >= 0) {
        // We will pretty-print the victim later, so get all the info.
        fill_informative_fields(&victim);
    }

    return victim;
}

// ---- the entry point for the benchmark (not earlyoom's) ----

earlyoom_victim_t earlyoom_find_largest_process(const char* procdir)
{
    procdir_path = procdir;
    const poll_loop_args_t args = { 0 };
    procinfo_t victim = find_largest_process(&args);
    earlyoom_victim_t result = { victim.pid > 0 ? victim.pid : 0, victim.oom_score, victim.VmRSSkiB };
    return result;
}
