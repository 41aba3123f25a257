// The opening books of match/openings/, embedded in the binary at build time so that `tabula
// match` finds them wherever it runs. `tabula openings` remakes a file (match/book.c).
#include "match/book.h"

#include <string.h>

__asm__(".section .rodata\n"
        ".global book_three, book_three_end\n"
        "book_three:\n"
        ".incbin \"match/openings/three.txt\"\n"
        "book_three_end:\n"
        ".byte 0\n"
        ".global book_five, book_five_end\n"
        "book_five:\n"
        ".incbin \"match/openings/five.txt\"\n"
        "book_five_end:\n"
        ".byte 0\n"
        ".global book_six, book_six_end\n"
        "book_six:\n"
        ".incbin \"match/openings/six.txt\"\n"
        "book_six_end:\n"
        ".byte 0\n"
        ".global book_seven, book_seven_end\n"
        "book_seven:\n"
        ".incbin \"match/openings/seven.txt\"\n"
        "book_seven_end:\n"
        ".byte 0\n"
        ".global book_nine, book_nine_end\n"
        "book_nine:\n"
        ".incbin \"match/openings/nine.txt\"\n"
        "book_nine_end:\n"
        ".byte 0\n"
        ".global book_eleven, book_eleven_end\n"
        "book_eleven:\n"
        ".incbin \"match/openings/eleven.txt\"\n"
        "book_eleven_end:\n"
        ".byte 0\n"
        ".global book_twelve, book_twelve_end\n"
        "book_twelve:\n"
        ".incbin \"match/openings/twelve.txt\"\n"
        "book_twelve_end:\n"
        ".byte 0\n"
        ".global book_morabaraba, book_morabaraba_end\n"
        "book_morabaraba:\n"
        ".incbin \"match/openings/morabaraba.txt\"\n"
        "book_morabaraba_end:\n"
        ".byte 0\n"
        ".global book_lasker, book_lasker_end\n"
        "book_lasker:\n"
        ".incbin \"match/openings/lasker.txt\"\n"
        "book_lasker_end:\n"
        ".byte 0\n"
        ".global book_nine_holes, book_nine_holes_end\n"
        "book_nine_holes:\n"
        ".incbin \"match/openings/nine-holes.txt\"\n"
        "book_nine_holes_end:\n"
        ".byte 0\n"
        ".global book_tapatan, book_tapatan_end\n"
        "book_tapatan:\n"
        ".incbin \"match/openings/tapatan.txt\"\n"
        "book_tapatan_end:\n"
        ".byte 0\n"
        ".global book_achi, book_achi_end\n"
        "book_achi:\n"
        ".incbin \"match/openings/achi.txt\"\n"
        "book_achi_end:\n"
        ".byte 0\n"
        ".previous\n");

extern const char book_three[], book_three_end[];
extern const char book_five[], book_five_end[];
extern const char book_six[], book_six_end[];
extern const char book_seven[], book_seven_end[];
extern const char book_nine[], book_nine_end[];
extern const char book_eleven[], book_eleven_end[];
extern const char book_twelve[], book_twelve_end[];
extern const char book_morabaraba[], book_morabaraba_end[];
extern const char book_lasker[], book_lasker_end[];
extern const char book_nine_holes[], book_nine_holes_end[];
extern const char book_tapatan[], book_tapatan_end[];
extern const char book_achi[], book_achi_end[];

static const struct {
    const char *variant;
    const char *start, *end;
} BOOKS[] = {
    {"three", book_three, book_three_end},
    {"five", book_five, book_five_end},
    {"six", book_six, book_six_end},
    {"seven", book_seven, book_seven_end},
    {"nine", book_nine, book_nine_end},
    {"eleven", book_eleven, book_eleven_end},
    {"twelve", book_twelve, book_twelve_end},
    {"morabaraba", book_morabaraba, book_morabaraba_end},
    {"lasker", book_lasker, book_lasker_end},
    {"nine-holes", book_nine_holes, book_nine_holes_end},
    {"tapatan", book_tapatan, book_tapatan_end},
    {"achi", book_achi, book_achi_end},
};

const char *book_text(const char *variant, size_t *len) {
    for (size_t i = 0; i < sizeof BOOKS / sizeof BOOKS[0]; i++)
        if (!strcmp(variant, BOOKS[i].variant)) {
            *len = (size_t)(BOOKS[i].end - BOOKS[i].start);
            return BOOKS[i].start;
        }
    return NULL;
}
