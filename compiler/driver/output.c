/* output.c — one output file put in place: temporary and rename for regular
 * files, in place for devices and FIFOs, symbolic links followed, and the
 * temporaries removed on a fatal signal (output.h says why each). */
#include "driver/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the temporaries a signal removes ------------------------------------- */

/* Slot i is in use while temp_in_use[i]; its path is written only while
 * the signals below are blocked, so the handler never sees half of one. */
static char temp_paths[OUTPUT_MAX_TEMPS][PATH_MAX];
static volatile sig_atomic_t temp_in_use[OUTPUT_MAX_TEMPS];

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
enum { FATAL_SIGNAL_COUNT = sizeof fatal_signals / sizeof *fatal_signals };

/* Async-signal-safe: unlink, then the default action (SA_RESETHAND put it
 * back; the raised signal is delivered as the handler returns). */
static void remove_temporaries(int sig)
{
    int saved = errno;
    for (int i = 0; i < OUTPUT_MAX_TEMPS; i++)
        if (temp_in_use[i])
            unlink(temp_paths[i]);
    raise(sig);
    errno = saved;
}

void output_install_signal_handlers(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_temporaries;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < FATAL_SIGNAL_COUNT; i++)
        sigaddset(&action.sa_mask, fatal_signals[i]);
    for (int i = 0; i < FATAL_SIGNAL_COUNT; i++) {
        struct sigaction old;
        if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(fatal_signals[i], &action, NULL);
    }
    signal(SIGXFSZ, SIG_IGN);
}

static void block_fatal_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < FATAL_SIGNAL_COUNT; i++)
        sigaddset(&set, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* Creates the temporary for `dest` (".NAME.sgcc-XXXXXX" in its directory)
 * in a free slot; returns the open descriptor, or -1 with errno set. */
static int create_temporary(OutputFile *o)
{
    const char *slash = strrchr(o->dest, '/');
    int dir_len = slash ? (int)(slash - o->dest) + 1 : 0;
    const char *name = slash ? slash + 1 : o->dest;
    sigset_t old;
    block_fatal_signals(&old);
    int slot = 0;
    while (slot < OUTPUT_MAX_TEMPS && temp_in_use[slot])
        slot++;
    int fd = -1;
    if (slot == OUTPUT_MAX_TEMPS) {
        errno = EMFILE; /* more outputs than an input has: a bug */
    } else if (snprintf(temp_paths[slot], PATH_MAX, "%.*s.%s.sgcc-XXXXXX", dir_len, o->dest, name)
               >= PATH_MAX) {
        errno = ENAMETOOLONG;
    } else if ((fd = mkstemp(temp_paths[slot])) >= 0) {
        temp_in_use[slot] = 1;
        o->slot = slot;
    }
    int saved = errno;
    restore_signals(&old);
    errno = saved;
    return fd;
}

static void release_slot(OutputFile *o)
{
    if (o->slot >= 0) {
        sigset_t old;
        block_fatal_signals(&old);
        temp_in_use[o->slot] = 0;
        restore_signals(&old);
        o->slot = -1;
    }
}

/* ---- paths ------------------------------------------------------------------ */

/* `target` read from the link `link`, made relative to the link's directory. */
static char *link_target(const char *link, const char *target)
{
    const char *slash = strrchr(link, '/');
    char *joined = NULL;
    if (target[0] == '/' || !slash)
        return strdup(target);
    if (asprintf(&joined, "%.*s/%s", (int)(slash - link), link, target) < 0)
        return NULL;
    return joined;
}

char *output_resolve_links(const char *path)
{
    char *current = strdup(path);
    for (int hops = 0; current; hops++) {
        struct stat st;
        if (lstat(current, &st) != 0 || !S_ISLNK(st.st_mode))
            return current; /* missing (to be created) or the file itself */
        char target[PATH_MAX];
        ssize_t n = hops < 40 ? readlink(current, target, sizeof target - 1) : -1;
        if (hops >= 40)
            errno = ELOOP;
        if (n < 0) {
            free(current);
            return NULL;
        }
        target[n] = '\0';
        char *next = link_target(current, target);
        free(current);
        current = next;
    }
    return NULL;
}

/* ---- staging and committing ------------------------------------------------ */

static bool write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

bool output_stage(OutputFile *o, const char *data, size_t len, mode_t mode, const char **step)
{
    *step = "create";
    o->slot = -1;
    o->dest = output_resolve_links(o->path);
    if (!o->dest)
        return false;
    struct stat st;
    if (stat(o->dest, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->in_place = true; /* a device, a FIFO, ...: nothing to rename over it */
        return true;
    }
    int fd = create_temporary(o);
    if (fd < 0)
        return false;
    *step = "write";
    errno = 0;
    bool ok = fchmod(fd, mode) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok && saved)
        errno = saved;
    return ok;
}

bool output_write_in_place(const OutputFile *o, const char *data, size_t len)
{
    /* No O_CREAT: the node was there when staged; if it went meanwhile,
     * creating a plain file in its place would be neither atomic nor asked
     * for.  A FIFO blocks here until a reader opens it, as with gcc. */
    int fd = open(o->dest, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = write_all(fd, data, len);
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok && saved)
        errno = saved;
    return ok;
}

bool output_rename(OutputFile *o)
{
    if (o->slot < 0)
        return true;
    sigset_t old;
    block_fatal_signals(&old);
    bool ok = rename(temp_paths[o->slot], o->dest) == 0;
    int saved = errno;
    if (ok)
        temp_in_use[o->slot] = 0;
    restore_signals(&old);
    if (ok)
        o->slot = -1;
    errno = saved;
    return ok;
}

const char *output_temp_name(const OutputFile *o)
{
    return o->slot >= 0 ? temp_paths[o->slot] : NULL;
}

void output_discard(OutputFile *o)
{
    if (o->slot >= 0)
        unlink(temp_paths[o->slot]);
    release_slot(o);
    free(o->dest);
    o->dest = NULL;
}

/* ---- identities ------------------------------------------------------------- */

/* `path` made absolute, with "." and ".." and repeated slashes removed as
 * text (for a file whose directory does not exist yet either). */
static char *lexically_absolute(const char *path)
{
    char cwd[PATH_MAX];
    char *joined = NULL;
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        return NULL;
    if (asprintf(&joined, "%s/%s", path[0] == '/' ? "" : cwd, path) < 0)
        return NULL;
    char *out = joined; /* written in place: the result is never longer */
    size_t len = 0;
    for (char *p = joined; *p;) {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (len > 0 && out[--len] != '/')
                ;
        } else if (n > 0 && !(n == 1 && p[0] == '.')) {
            out[len++] = '/';
            memmove(out + len, p, n);
            len += n;
        }
        p += n;
    }
    if (len == 0)
        out[len++] = '/';
    out[len] = '\0';
    return out;
}

/* A file that does not exist yet: its directory's real path + its name. */
static char *new_file_name(const char *dest)
{
    const char *slash = strrchr(dest, '/');
    char *dir = slash ? strndup(dest, slash == dest ? 1 : (size_t)(slash - dest)) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    char *name = NULL;
    if (real) {
        if (asprintf(&name, "%s/%s", strcmp(real, "/") == 0 ? "" : real,
                     slash ? slash + 1 : dest) < 0)
            name = NULL;
    } else if (dir) {
        name = lexically_absolute(dest);
    }
    free(real);
    free(dir);
    return name;
}

bool output_identity(const char *path, OutputIdentity *id)
{
    memset(id, 0, sizeof *id);
    char *dest = output_resolve_links(path);
    struct stat st;
    if (dest && stat(dest, &st) == 0) {
        id->exists = true;
        id->shareable = S_ISCHR(st.st_mode);
        id->dev = st.st_dev;
        id->ino = st.st_ino;
    } else {
        /* A link loop or an unreadable link: compare the spelling; the
         * write itself will report the problem. */
        id->name = dest ? new_file_name(dest) : lexically_absolute(path);
    }
    free(dest);
    return id->exists || id->name;
}

bool output_identity_equal(const OutputIdentity *a, const OutputIdentity *b)
{
    if (a->exists != b->exists)
        return false;
    if (a->exists)
        return a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->name, b->name) == 0;
}

void output_identity_free(OutputIdentity *id)
{
    free(id->name);
    id->name = NULL;
}
