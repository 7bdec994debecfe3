/* layout/palette.c — the theme tables of palette.h (values from
 * visual-design.md; the 12 channel hues are 30° apart in HSL, interleaved so
 * neighbouring indices differ by 150°, lighter on dark backgrounds and darker
 * on light ones) and the channel-hue hash (xxHash of the site pair, so the
 * same channel gets the same colour in every run and every picture). */
#include "palette.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define RGB(x) {(uint8_t)((x) >> 16), (uint8_t)((x) >> 8), (uint8_t)(x), 255}
#define RGBA(x, a) {(uint8_t)((x) >> 16), (uint8_t)((x) >> 8), (uint8_t)(x), (a)}

static const lay_palette themes[LAY_THEME_COUNT] = {
    [LAY_THEME_DARK] = {
        .bg = RGB(0x16181D), .fg = RGB(0xE6E6E6), .dim = RGB(0x8A8F98), .life = RGB(0x4A4F58),
        .mark = {[LAY_MARK_RUNNING] = RGB(0x56B4E9), [LAY_MARK_RUNNABLE] = RGB(0x999999),
                 [LAY_MARK_BLOCK_CHAN] = RGB(0xE69F00), [LAY_MARK_BLOCK_SYNC] = RGB(0xCC79A7),
                 [LAY_MARK_SLEEP] = RGB(0x009E73), [LAY_MARK_SYSCALL] = RGB(0xF0E442),
                 [LAY_MARK_BLOCK_OTHER] = RGB(0x6E7580)},
        .gc = RGBA(0xD55E00, 64), .spawn = RGB(0x777777), .sync = RGB(0xCC79A7),
        .chan = {RGB(0xEE7A63), RGB(0x63EEBF), RGB(0xEE63D7), RGB(0x91EE63), RGB(0x7A63EE),
                 RGB(0xEEBF63), RGB(0x63D7EE), RGB(0xEE6391), RGB(0x63EE7A), RGB(0xBF63EE),
                 RGB(0xD7EE63), RGB(0x6391EE)},
    },
    [LAY_THEME_LIGHT] = {
        .bg = RGB(0xFFFFFF), .fg = RGB(0x1A1A1A), .dim = RGB(0x6B6B6B), .life = RGB(0xC8C8C8),
        .mark = {[LAY_MARK_RUNNING] = RGB(0x56B4E9), [LAY_MARK_RUNNABLE] = RGB(0x999999),
                 [LAY_MARK_BLOCK_CHAN] = RGB(0xE69F00), [LAY_MARK_BLOCK_SYNC] = RGB(0xCC79A7),
                 [LAY_MARK_SLEEP] = RGB(0x009E73), [LAY_MARK_SYSCALL] = RGB(0xF0E442),
                 [LAY_MARK_BLOCK_OTHER] = RGB(0x6E7580)},
        .gc = RGBA(0xD55E00, 64), .spawn = RGB(0x777777), .sync = RGB(0xCC79A7),
        .chan = {RGB(0xBD2C0F), RGB(0x0FBD83), RGB(0xBD0FA0), RGB(0x49BD0F), RGB(0x2C0FBD),
                 RGB(0xBD830F), RGB(0x0FA0BD), RGB(0xBD0F49), RGB(0x0FBD2C), RGB(0x830FBD),
                 RGB(0xA0BD0F), RGB(0x0F49BD)},
    },
    [LAY_THEME_GOTRACE] = {
        .bg = RGB(0x1D1F17), .fg = RGB(0xE6E6E6), .dim = RGB(0x8A8C80), .life = RGB(0x45483A),
        /* gotrace's own three (running, blocked, sleeping); the states it
         * does not tell apart get colours of their own, away from those */
        .mark = {[LAY_MARK_RUNNING] = RGB(0xD4FF00), [LAY_MARK_RUNNABLE] = RGB(0x9A9C8E),
                 [LAY_MARK_BLOCK_CHAN] = RGB(0xED0000), [LAY_MARK_BLOCK_SYNC] = RGB(0xFF8C1A),
                 [LAY_MARK_SLEEP] = RGB(0x6C8200), [LAY_MARK_SYSCALL] = RGB(0xC77DFF),
                 [LAY_MARK_BLOCK_OTHER] = RGB(0x8C5A46)},
        .gc = RGBA(0xD55E00, 64), .spawn = RGB(0x777777), .sync = RGB(0x00D6DD),
        .chan = {RGB(0x00D6DD), RGB(0x00D6DD), RGB(0x00D6DD), RGB(0x00D6DD), RGB(0x00D6DD),
                 RGB(0x00D6DD), RGB(0x00D6DD), RGB(0x00D6DD), RGB(0x00D6DD), RGB(0x00D6DD),
                 RGB(0x00D6DD), RGB(0x00D6DD)},
    },
};

static const char *const theme_names[LAY_THEME_COUNT] = {"dark", "light", "gotrace"};

const lay_palette *lay_palette_get(lay_theme theme)
{
    return &themes[(unsigned)theme < LAY_THEME_COUNT ? theme : LAY_THEME_DARK];
}

bool lay_theme_parse(const char *name, lay_theme *out)
{
    for (int i = 0; i < LAY_THEME_COUNT; i++)
        if (!strcmp(name, theme_names[i])) {
            *out = (lay_theme)i;
            return true;
        }
    return false;
}

const char *lay_mark_name(lay_mark k)
{
    static const char *const names[LAY_MARK_COUNT] = {
        "not alive", "running", "runnable", "blocked on channel", "blocked on sync",
        "sleeping", "syscall / network", "blocked (other)"};
    return (unsigned)k < LAY_MARK_COUNT ? names[k] : "?";
}

/* Position before colour: running is the fat bar, waiting for a P and
 * sleeping are hairlines, blocking sits between so it is seen but quiet. */
float lay_mark_thickness(lay_mark k)
{
    static const float th[LAY_MARK_COUNT] = {0, 0.8f, 0.2f, 0.45f, 0.45f, 0.2f, 0.45f, 0.3f};
    return (unsigned)k < LAY_MARK_COUNT ? th[k] : 0;
}

uint32_t lay_chan_hue(const cs_model *m, uint32_t chan)
{
    if (!chan || chan >= m->n_chans)
        return 0;
    const cs_chan *c = &m->chans[chan];
    const char *a = cs_model_str(m, c->site_send), *b = cs_model_str(m, c->site_recv);
    uint64_t h;
    if (!a[0] && !b[0]) {
        uint64_t key = c->rt_id ? c->rt_id : chan;
        h = XXH3_64bits(&key, sizeof key);
    } else { /* the NUL keeps "ab"+"c" apart from "a"+"bc" */
        h = XXH3_64bits_withSeed(b, strlen(b), XXH3_64bits(a, strlen(a) + 1));
    }
    return (uint32_t)(h % LAY_CHAN_HUES);
}

/* Angle of palette entry i in 30° steps (the table is interleaved by 5). */
static int hue_angle(uint32_t i)
{
    return (int)(i * 5 % LAY_CHAN_HUES);
}

/* Smallest circular distance, in 30° steps, from hue h to any used hue. */
static int hue_gap(uint32_t h, uint32_t used)
{
    int best = LAY_CHAN_HUES;
    for (uint32_t u = 0; u < LAY_CHAN_HUES; u++) {
        if (!(used & (1u << u)))
            continue;
        int d = abs(hue_angle(h) - hue_angle(u));
        d = d < LAY_CHAN_HUES - d ? d : LAY_CHAN_HUES - d;
        best = d < best ? d : best;
    }
    return best;
}

uint8_t *lay_chan_hue_table(const cs_model *m, cs_err *err)
{
    uint8_t *t = cs_calloc((size_t)m->n_chans + 1, 1);
    if (!t) {
        CS_FAIL(err, CS_E_NOMEM, CS_NO_OFFSET, "out of memory for %u channel hues", m->n_chans);
        return NULL;
    }
    uint32_t used = 0; /* bit set of palette entries taken */
    for (uint32_t c = 1; c < m->n_chans; c++) {
        uint32_t h0 = lay_chan_hue(m, c), h = h0;
        bool found = false;
        /* the hash hue if it is far from the others, else the next that is */
        for (int need = 3; need >= 1 && !found; need--)
            for (uint32_t k = 0; k < LAY_CHAN_HUES && !found; k++)
                if (hue_gap((h0 + k) % LAY_CHAN_HUES, used) >= need)
                    h = (h0 + k) % LAY_CHAN_HUES, found = true;
        used |= 1u << h;
        if (used == (1u << LAY_CHAN_HUES) - 1)
            used = 0; /* all taken: start over, so hues repeat evenly */
        t[c] = (uint8_t)h;
    }
    return t;
}

void lay_rgba_hex(lay_rgba c, char out[8])
{
    snprintf(out, 8, "#%02x%02x%02x", c.r, c.g, c.b);
}

void lay_legend_chans_of(const cs_model *m, const uint32_t *shown, lay_legend_chans *out)
{
    uint32_t cnt[LAY_LEGEND_CHANS], n = 0, more = 0, *top = out->chan;
    for (uint32_t c = 1; c < m->n_chans; c++) { /* insertion into the busiest, by count */
        uint32_t k = m->chans[c].count;
        if (!k)
            continue;
        uint32_t at = n;
        while (at > 0 && cnt[at - 1] < k)
            at--;
        if (at >= LAY_LEGEND_CHANS) {
            more++;
            continue;
        }
        if (n == LAY_LEGEND_CHANS)
            more++;
        else
            n++;
        memmove(top + at + 1, top + at, (n - 1 - at) * sizeof *top);
        memmove(cnt + at + 1, cnt + at, (n - 1 - at) * sizeof *cnt);
        top[at] = c, cnt[at] = k;
    }
    out->n = n, out->more = more;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = cs_model_str(m, m->chans[top[i]].name);
        snprintf(out->wide[i], sizeof out->wide[i], "%.140s (%u)", name, cnt[i]);
        snprintf(out->name[i], sizeof out->name[i], "%.140s (%u)", name, shown ? shown[top[i]] : cnt[i]);
    }
}
