/* cli/main.c — chanscope's entry point: `chanscope COMMAND [options] TRACE`.
 * Finds the command in the table and runs it; each command parses its own
 * options with getopt_long and prints its own --help. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#ifndef CS_VERSION
#define CS_VERSION "0.1.0"
#endif

static const cli_cmd commands[] = {
    {"info", "format, version, size and counts of a trace", cli_cmd_info},
    {"pairs", "channel messages: who sent what to whom, when, on which channel", cli_cmd_pairs},
    {"edges", "every wake-up of a waiting goroutine, classified", cli_cmd_edges},
    {"svg", "draw lanes and channel arrows (or the graph) as SVG", cli_cmd_svg},
    {"dot", "the communication graph as Graphviz DOT (or rendered)", cli_cmd_dot},
    {"perfetto", "Chrome trace-event JSON with message flow arrows (Perfetto UI)", cli_cmd_perfetto},
    {"png", "draw the trace to a PNG (or an animation) without a display", cli_cmd_png},
    {"view", "open the trace in an interactive OpenGL window", cli_cmd_view},
    {"events", "every event in order, or counts per type (--summary)", cli_cmd_events},
    {"stats", "per-goroutine statistics as Go computes them", cli_cmd_stats},
};

static void usage(FILE *to)
{
    fputs("usage: chanscope COMMAND [options] TRACE\n\n"
          "chanscope turns Go execution traces (Go 1.5 to 1.27) into pictures of\n"
          "concurrency: who runs when, and who talks to whom over which channel.\n"
          "Trace wire versions read: " DEC_VERSIONS " (Go 1.26 and 1.27 write 1.26).\n"
          "TRACE is a file, a pipe or FIFO, or - for standard input.\n\n"
          "Commands:\n", to);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nRun 'chanscope COMMAND --help' for a command's options.\n"
          "Exit status: 0 ok, 1 bad input or a failed write, 2 usage error.\n", to);
}

/* Every command's standard output is checked here, once: a write that
 * failed (a full disk, /dev/full) or a failing final flush or close turns a
 * successful exit into 1. A command that failed has already said why. */
static int finish(int rc)
{
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad)
        bad = true, e = errno;
    if (!bad || rc != 0)
        return rc;
    fprintf(stderr, "chanscope: cannot write standard output: %s\n", e ? strerror(e) : "write failed");
    return 1;
}

int main(int argc, char **argv)
{
    /* Only this thread writes stdout. Without this, glibc locks the stream on
     * every character once a decoder has started a thread. */
    __fsetlocking(stdout, FSETLOCKING_BYCALLER);
    cs_alloc_init();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(0);
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("chanscope %s\n", CS_VERSION);
        return finish(0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return finish(commands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "chanscope: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
