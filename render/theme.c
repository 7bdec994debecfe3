/* render/theme.c — colours of the three themes (visual-design.md, "Colour"):
 * dark and light share the Okabe–Ito state colours; gotrace reproduces
 * gotrace's look. Also the state → colour and state → bar-or-line rules. */
#include "rnd.h"

static const rnd__theme themes[RND_THEME_COUNT] = {
    [RND_DARK] = {
        .bg = 0x16181dff, .fg = 0xe6e6e6ff, .fg_dim = 0x8a8f98ff, .grid = 0x2c3038ff,
        .panel = 0x22252cee,
        .state = {0, 0x56b4e9ff, 0x999999ff, 0xe69f00ff, 0xf0e442ff},
        .chan_block = 0xe69f00ff, .sync_block = 0xcc79a7ff, .sleep = 0x009e73ff,
        .syscall = 0xf0e442ff, .gc = 0xd55e0040, .spawn = 0x777777ff, .pulse = 0xffffffff,
        .select = 0xffffffff,
        .hue = {0xff6fa8ff, 0xb9a2ffff, 0x7fe7d0ff, 0xffb38aff, 0x8fd0ffff, 0xe0ff8aff,
                0xff8affff, 0x9cffa0ff, 0xffe08aff, 0x8aa6ffff, 0xff9a9aff, 0xd9d9d9ff},
    },
    [RND_LIGHT] = {
        .bg = 0xffffffff, .fg = 0x1a1a1aff, .fg_dim = 0x6b6b6bff, .grid = 0xe4e4e4ff,
        .panel = 0xf3f3f3ee,
        .state = {0, 0x3a9ad9ff, 0xa0a0a0ff, 0xe69f00ff, 0xd4c400ff},
        .chan_block = 0xe69f00ff, .sync_block = 0xcc79a7ff, .sleep = 0x009e73ff,
        .syscall = 0xd4c400ff, .gc = 0xd55e0038, .spawn = 0x888888ff, .pulse = 0x111111ff,
        .select = 0x000000ff,
        .hue = {0xd6246eff, 0x6a3d9aff, 0x1b9e77ff, 0xb15928ff, 0x386cb0ff, 0x7a8f00ff,
                0xb000b0ff, 0x2f8f3fff, 0xa07800ff, 0x3050c0ff, 0xc03030ff, 0x404040ff},
    },
    [RND_GOTRACE] = {
        .bg = 0x1d1f17ff, .fg = 0xe8e8d8ff, .fg_dim = 0x8c8f7aff, .grid = 0x33362aff,
        .panel = 0x2a2d22ee,
        .state = {0, 0xd4ff00ff, 0x6c6c60ff, 0xed0000ff, 0xf0e442ff},
        .chan_block = 0xed0000ff, .sync_block = 0xed0000ff, .sleep = 0x6c8200ff,
        .syscall = 0xf0e442ff, .gc = 0xd55e0040, .spawn = 0x777777ff, .pulse = 0xffffffff,
        .select = 0xffffffff,
        .hue = {0x00d6ddff, 0x00d6ddff, 0x00d6ddff, 0x00d6ddff, 0x00d6ddff, 0x00d6ddff,
                0x00d6ddff, 0x00d6ddff, 0x00d6ddff, 0x00d6ddff, 0x00d6ddff, 0x00d6ddff},
    },
};

const rnd__theme *rnd__theme_get(rnd_theme t)
{
    return &themes[t < RND_THEME_COUNT ? t : RND_DARK];
}

int rnd__span_style(int st, int r)
{
    switch (st) {
    case CS_ST_RUNNING: return RND__S_RUN;
    case CS_ST_SYSCALL: return RND__S_SYSCALL;
    case CS_ST_BLOCKED: break;
    default: return RND__S_RUNNABLE;
    }
    switch (r) {
    case CS_R_CHAN_SEND: case CS_R_CHAN_RECV: case CS_R_SELECT: case CS_R_FOREVER:
        return RND__S_CHAN;
    case CS_R_SYNC: case CS_R_COND: return RND__S_SYNC;
    case CS_R_SLEEP: return RND__S_SLEEP;
    case CS_R_NET: case CS_R_SYSCALL: return RND__S_SYSCALL;
    default: return RND__S_WAIT;
    }
}

uint32_t rnd__style_color(const rnd__theme *th, int style)
{
    switch (style) {
    case RND__S_RUN: return th->state[CS_ST_RUNNING];
    case RND__S_CHAN: return th->chan_block;
    case RND__S_SYNC: return th->sync_block;
    case RND__S_SLEEP: return th->sleep;
    case RND__S_SYSCALL: return th->syscall;
    default: return th->state[CS_ST_RUNNABLE];
    }
}

/* Bar height as a fraction of the lane: running is the thick bar, waiting
 * on something named is a medium bar, runnable/sleeping a thin line. */
float rnd__style_weight(int style)
{
    static const float w[RND__NSTYLE] = {
        [RND__S_RUN] = 0.8f, [RND__S_SYSCALL] = 0.6f, [RND__S_CHAN] = 0.42f,
        [RND__S_SYNC] = 0.42f, [RND__S_SLEEP] = 0.16f, [RND__S_RUNNABLE] = 0.16f,
        [RND__S_WAIT] = 0.16f};
    return w[style];
}

static uint32_t mix(uint32_t a, uint32_t b, float k)
{
    uint32_t out = 0;
    for (int sh = 8; sh < 32; sh += 8) {
        float ca = (float)((a >> sh) & 255), cb = (float)((b >> sh) & 255);
        out |= (uint32_t)(ca + (cb - ca) * k + 0.5f) << sh;
    }
    return out | (a & 255);
}

uint32_t rnd__dim(uint32_t rgba, float k, uint32_t bg)
{
    return mix(rgba, bg, k);
}

uint32_t rnd__alpha(uint32_t rgba, float a)
{
    return (rgba & 0xffffff00u) | (uint32_t)((float)(rgba & 255) * a);
}
