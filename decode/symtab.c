/* decode/symtab.c — ELF .symtab function symbols for PC symbolization (see
 * symtab.h). The binary is untrusted too: libelf bounds-checks sections, and
 * we copy only names whose bytes lie inside the string table. */
#include "symtab.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_lo(const void *a, const void *b)
{
    const dec_sym *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static bool add_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, dec_symtab *t, cs_err *err)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || !sh->sh_entsize)
        return true;
    size_t n = sh->sh_size / sh->sh_entsize;
    if (n > 50u * 1000 * 1000)
        return CS_FAIL(err, CS_E_CORRUPT, CS_NO_OFFSET, "binary: symbol table too large");
    t->syms = cs_alloc((n + 1) * sizeof *t->syms);
    size_t cap_names = 1 << 20, len = 0;
    t->names = cs_alloc(cap_names);
    if (!t->syms || !t->names)
        return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "binary: out of memory for %zu symbols", n);
    for (size_t i = 0; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_value)
            continue;
        const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
        if (!name)
            continue;
        size_t l = strlen(name) + 1;
        if (len + l > cap_names) {
            size_t nc = (cap_names + l) * 2;
            char *p = cs_realloc(t->names, nc);
            if (!p)
                return CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "binary: out of memory for names");
            t->names = p, cap_names = nc;
        }
        memcpy(t->names + len, name, l);
        t->syms[t->n++] = (dec_sym){s.st_value, s.st_value + (s.st_size ? s.st_size : 1), (uint32_t)len, 0};
        len += l;
        if (len > UINT32_MAX / 2)
            return CS_FAIL(err, CS_E_CORRUPT, CS_NO_OFFSET, "binary: symbol names too large");
    }
    t->names_len = len;
    qsort(t->syms, t->n, sizeof *t->syms, by_lo);
    /* Go's symbols often have no size: extend each to the next symbol */
    for (uint32_t i = 0; i + 1 < t->n; i++)
        if (t->syms[i].hi <= t->syms[i].lo + 1)
            t->syms[i].hi = t->syms[i + 1].lo;
    return true;
}

bool dec_symtab_open(const char *path, dec_symtab *out, cs_err *err)
{
    memset(out, 0, sizeof *out);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return CS_FAIL(err, CS_E_INTERNAL, CS_NO_OFFSET, "libelf: %s", elf_errmsg(-1));
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return CS_FAIL(err, CS_E_IO, CS_NO_OFFSET, "cannot open binary %s", path);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    bool ok = false, found = false;
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        CS_FAIL(err, CS_E_FORMAT, CS_NO_OFFSET, "%s is not an ELF binary", path);
        goto done;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        found = true;
        if (!add_symbols(elf, scn, &sh, out, err))
            goto done;
        break;
    }
    if (!found) {
        CS_FAIL(err, CS_E_FORMAT, CS_NO_OFFSET, "%s has no symbol table (built with -ldflags=-s?)", path);
        goto done;
    }
    ok = true;
done:
    if (elf)
        elf_end(elf);
    close(fd);
    if (!ok)
        dec_symtab_close(out);
    return ok;
}

const char *dec_symtab_lookup(const dec_symtab *t, uint64_t pc)
{
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) { /* first symbol with lo > pc */
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->syms[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pc >= t->syms[lo - 1].hi)
        return NULL;
    return t->names + t->syms[lo - 1].name;
}

void dec_symtab_close(dec_symtab *t)
{
    if (!t)
        return;
    cs_free(t->syms);
    cs_free(t->names);
    memset(t, 0, sizeof *t);
}
