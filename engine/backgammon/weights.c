// The trained weights of the evaluation nets (net.h), embedded in the binary at build time
// from engine/backgammon/weights.bin so that no data file has to be found at run time. The
// file is made by the trainer (tools/bgtrain.c); docs/backgammon.md gives the command.
__asm__(".section .rodata\n"
        ".global bg_weights_data\n"
        ".global bg_weights_end\n"
        ".balign 16\n"
        "bg_weights_data:\n"
        ".incbin \"engine/backgammon/weights.bin\"\n"
        "bg_weights_end:\n"
        ".byte 0\n"
        ".previous\n");
