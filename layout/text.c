/* layout/text.c — how wide a line of text is, for layouts that must leave
 * room for their labels before anything is drawn (graph.h). DejaVu Sans's
 * advance widths (the font render/text.c draws with and the SVG names
 * first), in font units of 1/2048 em, for printable ASCII and the few
 * symbols chanscope prints; anything else counts as a digit. The result is
 * never less than LAY_TEXT_EM_PER_CHAR em per character, so a reader that
 * only knows the font size and the number of characters (the SVG tests)
 * never guesses a label wider than the layout made room for. */
#include "graph.h"
#include "../core/text.h"

static const uint16_t ascii_adv[95] = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1087,
    2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,  604,  1343, 1141, 1767, 1532, 1612,
    1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,  690,  799,  1716, 1024,
    1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186, 569,  1995, 1298, 1253,
    1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716,
};

static const struct {
    uint32_t cp;
    uint16_t adv;
} extra_adv[] = {{0xB5, 1303}, {0x2190, 1716}, {0x2192, 1716}, {0x2026, 2048}, {0xD7, 1716}, {0xB7, 651}};

static uint16_t advance(uint32_t cp)
{
    if (cp >= 32 && cp < 127)
        return ascii_adv[cp - 32];
    for (size_t i = 0; i < sizeof extra_adv / sizeof *extra_adv; i++)
        if (extra_adv[i].cp == cp)
            return extra_adv[i].adv;
    return 1303;
}

size_t lay_utf8_floor(const char *s, size_t k)
{
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
        k--;
    return k;
}

double lay_text_width(const char *utf8, double font_px)
{
    uint32_t units = 0, n = 0;
    while (*utf8) {
        units += advance(cs_utf8_next(&utf8));
        n++;
    }
    double exact = units / 2048.0, floor_em = LAY_TEXT_EM_PER_CHAR * n;
    return (exact > floor_em ? exact : floor_em) * font_px;
}
