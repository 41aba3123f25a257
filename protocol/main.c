// The only main(): dispatches a subcommand to its front end (protocol/cli.h, match/match.h,
// protocol/external.h), or runs the protocol loop on stdin and stdout.
#include "engine/core/bench.h"
#include "match/book.h"
#include "match/match.h"
#include "protocol/cli.h"
#include "protocol/external.h"
#include "protocol/prompt.h"
#include "protocol/uci.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

// clang-format off
static const char USAGE[] =
    "usage: tabula [command]\n"
    "\n"
    "With no command, tabula reads protocol commands (uci, position, go, ...) on stdin and\n"
    "answers on stdout; type 'help' at the prompt for the list.\n"
    "\n"
    "commands:\n"
    "  bench [DEPTH]\n"
    "        search a fixed set of positions of every mill variant to DEPTH (default "
             STRINGIFY(BENCH_DEPTH_DEFAULT) ") with one\n"
    "        thread; the last line, '<nodes> nodes <nps> nps', has the same node count on\n"
    "        every run and build\n"
    "  perft [--variant ID] [--fen STRING] [--divide] [DEPTH]\n"
    "        count the move sequences of DEPTH plies (default 6) from the variant's start\n"
    "        or from STRING, and report the time and leaves per second; every variant of\n"
    "        every family\n"
    "  match --engine cmd=... --engine cmd=... [options]\n"
    "        play engines against each other, refereed by tabula's rules (mill variants and\n"
    "        backgammon);\n"
    "        'tabula match --help' lists the options\n"
    "  openings VARIANT [--seed N] [--count N] [--plies N] [--depth D] [--window CP]\n"
    "        [--out FILE]\n"
    "        make a balanced opening book for tabula match: random openings of N plies,\n"
    "        kept when their exact value is a draw (solved variants) or a search of depth D\n"
    "        scores them within +-CP centi-men\n"
    "  solve VARIANT [--men M] [--out FILE] [--threads N]\n"
    "        solve a variant of the 9-, 16- or 17-point board by retrograde analysis into\n"
    "        FILE (default VARIANT.tdb; an unfinished FILE is resumed) with N threads\n"
    "        (default all), then print the value of the start and statistics;\n"
    "        with --men M, the endgame database of a 24-point variant: every position\n"
    "        with no men in hand and 3 to M men a side (default FILE VARIANT-menM.tdb)\n"
    "  external [--port PORT] [--plies N] [--jacoby on|off] [--once] [--verbose]\n"
    "        play backgammon as a GNU Backgammon external player: listen on\n"
    "        127.0.0.1:PORT (default 4321) and answer gnubg's board lines\n"
    "  --help, -h       this text\n"
    "  --version        the version\n";
// clang-format on

// The protocol loop; on a terminal, the prompt.
static int run_protocol(void) {
    Output out;
    Uci u;
    output_init(&out, stdout);
    if (!uci_init(&u, &out)) {
        fprintf(stderr, "tabula: out of memory\n");
        return 1;
    }
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        prompt_run(&u);
    } else {
        uci_loop(&u, stdin);
    }
    uci_free(&u);
    output_free(&out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1) {
        if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(argv[1], "--version")) {
            printf("tabula %s\n", TABULA_VERSION);
            return 0;
        }
        if (!strcmp(argv[1], "perft"))
            return cli_perft(argc - 2, argv + 2);
        if (!strcmp(argv[1], "match"))
            return match_main(argc - 2, argv + 2, stdout, stderr);
        if (!strcmp(argv[1], "openings"))
            return book_main(argc - 2, argv + 2, stdout, stderr);
        if (!strcmp(argv[1], "solve"))
            return cli_solve(argc - 2, argv + 2);
        if (!strcmp(argv[1], "bench"))
            return cli_bench(argc - 2, argv + 2);
        if (!strcmp(argv[1], "external"))
            return external_main(argc - 2, argv + 2);
        fprintf(stderr, "tabula: unknown command '%s'\n%s", argv[1], USAGE);
        return 2;
    }
    return run_protocol();
}
