/* output.h — how the sgcc command puts one output file in place
 * (docs/CLI.md "Writing outputs").
 *
 * A regular file (or a new one) is written to a temporary beside it and
 * renamed over it, so that it is replaced whole or not at all.  A symbolic
 * link is followed, as open() would: the temporary goes beside the file the
 * link names and is renamed onto that file, so the link stays a link.  An
 * existing file that is not regular (a character device such as /dev/null,
 * a FIFO) cannot be replaced by renaming, and must not be: it is opened and
 * written in place, as gcc writes it.
 *
 * Temporaries are registered in a fixed table before they are created, so
 * that SIGINT, SIGTERM, SIGHUP and SIGPIPE remove them (unlink only, from an
 * async-signal-safe handler) before the signal takes its default action.
 * SIGXFSZ is ignored: a file-size limit (ulimit -f) then fails the write
 * with EFBIG, which is an ordinary I/O error (exit 3, temporary removed). */
#ifndef SGCC_OUTPUT_H
#define SGCC_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Temporaries one input may hold at once: code per target, header, JSON,
 * depfile, -E. */
enum { OUTPUT_MAX_TEMPS = 8 };

typedef struct OutputFile {
    const char *path;   /* as named on the command line; "-" is stdout */
    char *dest;         /* path with its symbolic links followed (owned) */
    bool in_place;      /* an existing non-regular file: written at commit */
    int slot;           /* the temporary's slot in the table, or -1 */
} OutputFile;

/* Installs the signal handlers above; once, before any output is staged.
 * A signal the caller ignores (nohup) stays ignored. */
void output_install_signal_handlers(void);

/* `path` with symbolic links followed to the file they name, which need not
 * exist (a dangling link names the file to create).  Malloc'ed; NULL with
 * errno set (ELOOP after 40 links). */
char *output_resolve_links(const char *path);

/* Stage one: for a regular or new file, writes `len` bytes of `data` to a
 * fresh temporary beside o->dest (mode `mode`, fsync'ed); for a file
 * written in place, only notes it.  False with errno set; *step says what
 * failed ("create" or "write"). */
bool output_stage(OutputFile *o, const char *data, size_t len, mode_t mode, const char **step);

/* Stage two for a file written in place: opens it and writes the bytes.
 * False with errno set. */
bool output_write_in_place(const OutputFile *o, const char *data, size_t len);

/* Stage two for a staged temporary: renames it onto o->dest.  False with
 * errno set (the temporary is still there; output_discard removes it). */
bool output_rename(OutputFile *o);

/* The temporary's name (for messages), or NULL. */
const char *output_temp_name(const OutputFile *o);

/* Removes a temporary still staged and frees what `o` holds. */
void output_discard(OutputFile *o);

/* What a path will name once written, to find two outputs on one file:
 * an existing file by device and inode (through any links), a new one by
 * its absolute path with links and "."/".." resolved. */
typedef struct OutputIdentity {
    bool exists;
    bool shareable;     /* a character device (/dev/null): may take several outputs */
    dev_t dev;
    ino_t ino;
    char *name;         /* for a new file (owned), else NULL */
} OutputIdentity;

/* False when out of memory. */
bool output_identity(const char *path, OutputIdentity *id);
bool output_identity_equal(const OutputIdentity *a, const OutputIdentity *b);
void output_identity_free(OutputIdentity *id);

#endif
