#include "engine/mill/tablebase.h"

#include "engine/mill/movegen.h"
#include "engine/mill/solve.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TB_MAX_FILES 64

struct Tablebase {
    int n;
    SolveDb *db[TB_MAX_FILES];
    char name[TB_MAX_FILES][64]; // the file names, for messages
};

void tb_close(Tablebase *tb) {
    if (!tb)
        return;
    for (int i = 0; i < tb->n; i++)
        solve_free(tb->db[i]);
    free(tb);
}

// Load one file into the next slot.
static bool add_file(Tablebase *tb, const char *path, Error *err) {
    if (tb->n == TB_MAX_FILES)
        return error_set(err, "more than %d database files", TB_MAX_FILES);
    SolveDb *db = solve_load(path, err);
    if (!db)
        return false;
    const char *base = strrchr(path, '/');
    snprintf(tb->name[tb->n], sizeof tb->name[tb->n], "%.63s", base ? base + 1 : path);
    tb->db[tb->n++] = db;
    return true;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

// Load every *.tdb file of a directory, in name order.
static bool add_directory(Tablebase *tb, const char *dir, Error *err) {
    DIR *d = opendir(dir);
    if (!d)
        return error_set(err, "cannot read the directory %s: %s", dir, strerror(errno));
    char *names[TB_MAX_FILES + 1];
    int count = 0;
    bool ok = true;
    for (struct dirent *e; ok && (e = readdir(d));) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, ".tdb"))
            continue;
        if (count == TB_MAX_FILES)
            ok = error_set(err, "more than %d database files in %s", TB_MAX_FILES, dir);
        else if (!(names[count++] = strdup(e->d_name))) {
            ok = error_set(err, "out of memory");
            count--;
        }
    }
    closedir(d);
    if (ok && count == 0)
        ok = error_set(err, "no database file (*.tdb) in the directory %s", dir);
    if (ok)
        qsort(names, (size_t)count, sizeof *names, compare_names);
    for (int i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        ok = ok && add_file(tb, path, err);
        free(names[i]);
    }
    return ok;
}

Tablebase *tb_open(const char *path, Error *err) {
    struct stat st;
    if (stat(path, &st)) {
        error_set(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    Tablebase *tb = calloc(1, sizeof *tb);
    if (!tb) {
        error_set(err, "out of memory");
        return NULL;
    }
    bool ok = S_ISDIR(st.st_mode) ? add_directory(tb, path, err) : add_file(tb, path, err);
    if (!ok) {
        tb_close(tb);
        return NULL;
    }
    return tb;
}

// Whether db can hold p: its rules, and for a moving-phase database the men.
static bool covers(const SolveDb *db, const Position *p) {
    if (!solve_rules_match(db, p->rules))
        return false;
    int men = solve_max_men(db);
    return !men || (!p->hand[WHITE] && !p->hand[BLACK] && bits_count(p->men[WHITE]) <= men &&
                    bits_count(p->men[BLACK]) <= men);
}

bool tb_probe(const Tablebase *tb, const Position *p, int *value, int *distance) {
    for (int i = 0; i < tb->n; i++)
        if (covers(tb->db[i], p) && solve_probe(tb->db[i], p, value, distance))
            return true;
    return false;
}

void tb_why_not(const Tablebase *tb, const Position *p, char *buf, size_t n) {
    if (!tb) {
        snprintf(buf, n, "no tablebase is loaded (option TablebasePath)");
        return;
    }
    int most = 0;
    bool rules = false;
    for (int i = 0; i < tb->n; i++)
        if (solve_rules_match(tb->db[i], p->rules)) {
            rules = true;
            int men = solve_max_men(tb->db[i]);
            if (!men) {
                snprintf(buf, n, "its sub-database of %s is not solved yet", tb->name[i]);
                return;
            }
            if (men > most)
                most = men;
        }
    if (!rules)
        snprintf(buf, n, "no database of %s under these rule options", p->rules->variant->id);
    else if (p->hand[WHITE] || p->hand[BLACK])
        snprintf(buf, n, "men are still in hand; the databases hold the moving phase");
    else if (bits_count(p->men[WHITE]) > most || bits_count(p->men[BLACK]) > most)
        snprintf(buf, n, "a side has more than %d men", most);
    else
        snprintf(buf, n, "its sub-database is not solved yet");
}

int tb_root_moves(const Tablebase *tb, const Position *p, Move *moves, int n, uint64_t *probes) {
    int value, distance;
    if (!tb || n == 0 || !tb_probe(tb, p, &value, &distance))
        return n;
    ++*probes;
    // The value of each child for the side to move here: +1 win, 0 draw, -1 loss, and the
    // distance from here. The best: a win soonest, a draw, a loss latest.
    int *cv = malloc((size_t)n * 2 * sizeof *cv), *cd = cv + n, best_v = -2, best_d = 0;
    if (!cv)
        return n;
    for (int i = 0; i < n; i++) {
        Position c = *p;
        pos_apply_move(&c, moves[i]);
        if (!tb_probe(tb, &c, &cv[i], &cd[i])) {
            free(cv);
            return n;
        }
        ++*probes;
        cv[i] = -cv[i];
        cd[i]++;
        if (cv[i] > best_v ||
            (cv[i] == best_v && (cv[i] > 0 ? cd[i] < best_d : cv[i] < 0 && cd[i] > best_d)))
            best_v = cv[i], best_d = cd[i];
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (cv[i] == best_v && (best_v == 0 || cd[i] == best_d))
            moves[k++] = moves[i];
    free(cv);
    return k;
}
