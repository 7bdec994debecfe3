/* decode/symtab.h — function names for bare PCs, read from a Go binary's ELF
 * symbol table (.symtab) with libelf. Go 1.5/1.6 traces carry PCs without
 * names; `--binary PATH` gives them names through this. File and line are
 * not recovered (that would need DWARF); the function is what names a
 * goroutine and a channel site.
 *
 * API
 *   bool dec_symtab_open(const char *path, dec_symtab *out, cs_err *err)
 *   const char *dec_symtab_lookup(const dec_symtab *t, uint64_t pc)   NULL if no function covers pc
 *   void dec_symtab_close(dec_symtab *t)                               accepts a zeroed dec_symtab
 */
#ifndef DEC_SYMTAB_H
#define DEC_SYMTAB_H

#include "../core/cs.h"

typedef struct dec_sym {
    uint64_t lo, hi;   /* [lo, hi) */
    uint32_t name;     /* offset in names */
    uint32_t pad;
} dec_sym;

typedef struct dec_symtab {
    dec_sym *syms;     /* sorted by lo */
    uint32_t n;
    char *names;
    size_t names_len;
} dec_symtab;

bool dec_symtab_open(const char *path, dec_symtab *out, cs_err *err);
const char *dec_symtab_lookup(const dec_symtab *t, uint64_t pc);
void dec_symtab_close(dec_symtab *t);

#endif
