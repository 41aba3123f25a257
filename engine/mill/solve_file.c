#include "engine/mill/solve_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_MAGIC "TABSOLV1"
#define FILE_VERSION 1u
#define RECORD_MAGIC 0x44425553u // "SUBD"
#define ENDIAN_MARK 0x01020304u

typedef struct FileHeader {
    char magic[8];
    uint32_t version, endian;
    char variant[16];
    uint8_t flying, remove_from_mills, removal_per_mill, unfolded;
    uint32_t nsub, nsym;
    uint32_t max_men; // in what was padding: files of the whole game read 0
    uint64_t total;
} FileHeader;

typedef struct RecordHeader {
    uint32_t magic;
    int8_t a, b, ha, hb;
    uint64_t count, raw;
} RecordHeader;

static void fill_header(const SolveDb *db, FileHeader *h) {
    memset(h, 0, sizeof *h);
    memcpy(h->magic, FILE_MAGIC, sizeof h->magic);
    h->version = FILE_VERSION;
    h->endian = ENDIAN_MARK;
    snprintf(h->variant, sizeof h->variant, "%s", db->rules.variant->id);
    h->flying = db->rules.flying;
    h->remove_from_mills = db->rules.remove_from_mills;
    h->removal_per_mill = db->rules.removal_per_mill;
    h->unfolded = db->sym.n == 1;
    h->nsub = (uint32_t)db->nsub;
    h->nsym = (uint32_t)db->sym.n;
    h->max_men = (uint32_t)db->max_men;
    h->total = db->total;
}

static bool write_all(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n; }

static bool read_all(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n; }

static bool write_start(const SolveDb *db, FILE *f) {
    FileHeader h;
    fill_header(db, &h);
    if (!write_all(f, &h, sizeof h))
        return false;
    for (int i = 0; i < db->nsub; i++)
        if (!write_all(f, &db->sub[i].count, sizeof db->sub[i].count))
            return false;
    return fflush(f) == 0;
}

// Append the records of a solved group. They reach the kernel at once, so that a killed build
// resumes from them; the disk every few seconds (sync), since an fsync per small group would
// cost more than solving it.
bool solve_file_write_group(const SolveDb *db, FILE *f, int first, int last, bool sync) {
    for (int i = first; i < last; i++) {
        const SubDb *s = &db->sub[i];
        RecordHeader r = {RECORD_MAGIC,  (int8_t)s->a, (int8_t)s->b, (int8_t)s->ha,
                          (int8_t)s->hb, s->count,     s->raw};
        if (!write_all(f, &r, sizeof r) ||
            !write_all(f, s->bits, db_bitmap_words(s) * sizeof *s->bits) ||
            !write_all(f, (const void *)(db->val + s->offset), s->count * sizeof *db->val))
            return false;
    }
    return fflush(f) == 0 && (!sync || fsync(fileno(f)) == 0);
}

// Read the records that follow the header, as far as whole groups go; with check, the bitmaps
// must be the ones already built, else they are taken from the file. Returns the offset after
// the last whole group.
static long read_groups(SolveDb *db, FILE *f, bool check, uint64_t *positions) {
    long good = ftell(f);
    *positions = 0;
    uint64_t *tmp = NULL;
    int group_first = 0;
    for (int i = 0; i < db->nsub; i++) {
        SubDb *s = &db->sub[i];
        RecordHeader r;
        if (!read_all(f, &r, sizeof r) || r.magic != RECORD_MAGIC || r.a != s->a || r.b != s->b ||
            r.ha != s->ha || r.hb != s->hb || r.count != s->count || r.raw != s->raw)
            break;
        size_t words = db_bitmap_words(s);
        if (check) {
            uint64_t *t = realloc(tmp, (words ? words : 1) * sizeof *t);
            if (!t)
                break;
            tmp = t;
            if (!read_all(f, tmp, words * sizeof *tmp) || memcmp(tmp, s->bits, words * sizeof *tmp))
                break;
        } else {
            s->bits = malloc((words ? words : 1) * sizeof *s->bits);
            s->prefix = malloc((words ? words : 1) * sizeof *s->prefix);
            if (!s->bits || !s->prefix || !read_all(f, s->bits, words * sizeof *s->bits))
                break;
            uint64_t count = 0;
            for (size_t w = 0; w < words; w++) {
                s->prefix[w] = (uint32_t)count;
                count += (uint64_t)__builtin_popcountll(s->bits[w]);
            }
            if (count != s->count)
                break;
        }
        if (!read_all(f, (void *)(db->val + s->offset), s->count * sizeof *db->val))
            break;
        if (i + 1 == db->nsub || db->sub[i + 1].group != s->group) {
            for (int k = group_first; k <= i; k++) {
                db->sub[k].done = true;
                *positions += db->sub[k].count;
            }
            group_first = i + 1;
            good = ftell(f);
        }
    }
    free(tmp);
    // Values read for an incomplete group are solved again; clear them.
    for (int k = group_first; k < db->nsub; k++)
        if (!db->sub[k].done)
            memset((void *)(db->val + db->sub[k].offset), 0, db->sub[k].count * sizeof *db->val);
    return good;
}

// Open the database file: resume the groups it holds, or start it.
FILE *solve_file_open(SolveDb *db, const char *path, uint64_t *resumed, Error *err) {
    *resumed = 0;
    FILE *f = fopen(path, "r+b");
    if (f) {
        FileHeader want, got;
        fill_header(db, &want);
        if (read_all(f, &got, sizeof got)) {
            if (memcmp(&want, &got, sizeof want)) {
                fclose(f);
                error_set(err,
                          "%s holds another database (variant, rules or format); remove it "
                          "or choose another file",
                          path);
                return NULL;
            }
            bool same = true;
            for (int i = 0; i < db->nsub && same; i++) {
                uint64_t c;
                same = read_all(f, &c, sizeof c) && c == db->sub[i].count;
            }
            if (!same) {
                fclose(f);
                error_set(err, "%s holds another database; remove it or choose another file", path);
                return NULL;
            }
            long good = read_groups(db, f, true, resumed);
            if (fflush(f) || ftruncate(fileno(f), good) || fseek(f, good, SEEK_SET)) {
                error_set(err, "%s: %s", path, strerror(errno));
                fclose(f);
                return NULL;
            }
            return f;
        }
        fclose(f); // empty or cut inside the header: start again
    }
    f = fopen(path, "w+b");
    if (!f || !write_start(db, f)) {
        error_set(err, "cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return NULL;
    }
    return f;
}

SolveDb *solve_load(const char *path, Error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        error_set(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    FileHeader h;
    const Variant *v = NULL;
    if (!read_all(f, &h, sizeof h) || memcmp(h.magic, FILE_MAGIC, sizeof h.magic) ||
        h.version != FILE_VERSION || h.endian != ENDIAN_MARK ||
        !memchr(h.variant, 0, sizeof h.variant) || !(v = variant_find(h.variant))) {
        fclose(f);
        error_set(err, "%s is not a tabula solve database of this version", path);
        return NULL;
    }
    MillRules rules;
    rules_init(&rules, v);
    rules.flying = h.flying;
    rules.remove_from_mills = h.remove_from_mills;
    rules.removal_per_mill = h.removal_per_mill;
    int max_men = h.max_men <= SOLVE_MAX_MEN ? (int)h.max_men : -1;
    SolveDb *db = max_men >= 0 && solve_supported(&rules, max_men, err)
                      ? db_create(&rules, h.unfolded, max_men)
                      : NULL;
    bool ok = db && (int)h.nsub == db->nsub && (int)h.nsym == db->sym.n;
    for (int i = 0; ok && i < db->nsub; i++) {
        ok = read_all(f, &db->sub[i].count, sizeof db->sub[i].count);
        db->sub[i].offset = db->total;
        db->total += db->sub[i].count;
    }
    ok = ok && db->total == h.total && db->total < UINT32_MAX;
    if (ok)
        ok = (db->val = calloc(db->total ? db->total : 1, sizeof *db->val)) != NULL;
    uint64_t positions;
    if (ok)
        read_groups(db, f, false, &positions);
    fclose(f);
    if (!ok) {
        if (db || max_men < 0)
            error_set(err, "%s is damaged or does not match this version of tabula", path);
        solve_free(db);
        return NULL;
    }
    return db;
}
