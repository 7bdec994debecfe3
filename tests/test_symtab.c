/* tests/test_symtab.c — PC symbolization from a Go binary's ELF symbol table:
 * builds assets/go/pingpong with Debian's Go 1.19 and checks that the
 * addresses `go tool nm` reports for main.player and main.main resolve to
 * those names (inside the functions too), and that junk is rejected. */
#include "testlib.h"

#include "../decode/symtab.h"

#define GO "/usr/lib/go-1.19/bin/go"

static bool build_binary(char *bin, size_t n)
{
    if (access(GO, X_OK) != 0)
        return false;
    snprintf(bin, n, "build/test-go/pingpong");
    return system("mkdir -p build/test-go && cd assets/go/pingpong && "
                  "GOPATH=$PWD/../../../build/test-go/gopath GOCACHE=$PWD/../../../build/test-go/cache "
                  "GO111MODULE=off GOFLAGS= " GO " build -o ../../../build/test-go/pingpong . "
                  ">/dev/null 2>&1") == 0;
}

static uint64_t nm_addr(const char *bin, const char *sym)
{
    char cmd[512], line[256];
    snprintf(cmd, sizeof cmd, GO " tool nm %s | awk '$3==\"%s\" && $2==\"T\" {print $1}'", bin, sym);
    FILE *p = popen(cmd, "r");
    uint64_t a = 0;
    if (p && fgets(line, sizeof line, p))
        a = strtoull(line, NULL, 16);
    if (p)
        pclose(p);
    return a;
}

static void go_binary_pcs_resolve_to_their_functions(void **st)
{
    (void)st;
    char bin[256];
    if (!build_binary(bin, sizeof bin))
        skip();
    dec_symtab t;
    cs_err err = {0};
    assert_true(dec_symtab_open(bin, &t, &err));
    assert_true(t.n > 1000);
    const char *names[] = {"main.player", "main.main", "runtime.chansend1"};
    for (int i = 0; i < 3; i++) {
        uint64_t a = nm_addr(bin, names[i]);
        assert_true(a != 0);
        assert_string_equal(dec_symtab_lookup(&t, a), names[i]);
        assert_string_equal(dec_symtab_lookup(&t, a + 5), names[i]);
    }
    assert_null(dec_symtab_lookup(&t, 1));
    dec_symtab_close(&t);
}

static void a_non_elf_file_is_an_error(void **st)
{
    (void)st;
    dec_symtab t;
    cs_err err = {0};
    assert_false(dec_symtab_open("README.md", &t, &err));
    assert_int_equal(err.code, CS_E_FORMAT);
    err = (cs_err){0};
    assert_false(dec_symtab_open("/nonexistent/binary", &t, &err));
    assert_int_equal(err.code, CS_E_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(go_binary_pcs_resolve_to_their_functions),
        cmocka_unit_test(a_non_elf_file_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
