/* layout/palette.h — chanscope's colours in one place (visual-design.md
 * "Colour"): the dark, light and gotrace themes, the mark classes every
 * picture draws (running, runnable, blocked on a channel, ...), and the
 * 12-hue channel set picked by a stable hash of a channel's site pair.
 * Shared by render/ (viewer, PNG) and export/ (SVG, DOT). Pure data: no GL.
 *
 * API
 *   const lay_palette *lay_palette_get(lay_theme theme)       static storage, never NULL
 *   bool lay_theme_parse(const char *name, lay_theme *out)    "dark" | "light" | "gotrace"
 *   lay_mark lay_mark_of(cs_state st, cs_reason r)            which mark a span is drawn as
 *   const char *lay_mark_name(lay_mark k)                     legend text, e.g. "blocked on channel"
 *   float lay_mark_thickness(lay_mark k)                      bar height as a fraction of the lane
 *   uint32_t lay_chan_hue(const cs_model *m, uint32_t chan)   0..LAY_CHAN_HUES-1, stable across runs
 *   uint8_t *lay_chan_hue_table(const cs_model *m, cs_err *err)
 *       hue per channel (n_chans entries): the hash hue, moved along the circle
 *       when an earlier channel (by index) is within 90° (then 60°, 30°), so the
 *       first channels of a picture are far apart and up to 12 always differ.
 *       Free with cs_free; NULL on out of memory.
 *   void lay_rgba_hex(lay_rgba c, char out[8])                "#rrggbb"
 *   void lay_legend_chans_of(const cs_model *m, const uint32_t *shown, lay_legend_chans *out)
 *       the channels a legend names, every picture alike: those that carried
 *       messages, the busiest first (ties by index), at most LAY_LEGEND_CHANS,
 *       and how many more carried messages; each as "name (count)", the
 *       count being shown[chan], the channel's messages in the picture
 *       (lay_bundles.chan_arrows: in its time window, between goroutines it
 *       shows), or with shown NULL all of them. A picture lays its legend
 *       out by `wide`, the names with all the channel's messages, so that
 *       it stays put while its counts change.
 */
#ifndef LAY_PALETTE_H
#define LAY_PALETTE_H

#include "../core/model.h"

#define LAY_CHAN_HUES 12

typedef struct lay_rgba {
    uint8_t r, g, b, a;
} lay_rgba;

typedef enum lay_theme { LAY_THEME_DARK = 0, LAY_THEME_LIGHT, LAY_THEME_GOTRACE, LAY_THEME_COUNT } lay_theme;

/* What a span is drawn as. LAY_MARK_NONE = not alive (draw nothing). */
typedef enum lay_mark {
    LAY_MARK_NONE = 0,
    LAY_MARK_RUNNING,
    LAY_MARK_RUNNABLE,
    LAY_MARK_BLOCK_CHAN,  /* send, receive, select, nil channel / select{} */
    LAY_MARK_BLOCK_SYNC,  /* mutex, cond, WaitGroup */
    LAY_MARK_SLEEP,       /* time.Sleep, timers */
    LAY_MARK_SYSCALL,     /* in a syscall or waiting on the network */
    LAY_MARK_BLOCK_OTHER, /* GC waits and anything unclassified */
    LAY_MARK_COUNT
} lay_mark;

typedef struct lay_palette {
    lay_rgba bg;          /* background */
    lay_rgba fg;          /* text */
    lay_rgba dim;         /* secondary text, axis, grid */
    lay_rgba life;        /* the thin line over a goroutine's whole life */
    lay_rgba mark[LAY_MARK_COUNT];
    lay_rgba gc;          /* GC / STW band (alpha included) */
    lay_rgba spawn;       /* parent -> child links */
    lay_rgba sync;        /* sync wake-up arrows */
    lay_rgba chan[LAY_CHAN_HUES];
} lay_palette;

const lay_palette *lay_palette_get(lay_theme theme);
bool lay_theme_parse(const char *name, lay_theme *out);
const char *lay_mark_name(lay_mark k);
float lay_mark_thickness(lay_mark k);
uint32_t lay_chan_hue(const cs_model *m, uint32_t chan);
uint8_t *lay_chan_hue_table(const cs_model *m, cs_err *err);
void lay_rgba_hex(lay_rgba c, char out[8]);

#define LAY_LEGEND_CHANS 6 /* channels a legend names, at most; then "+N more channels" */
typedef struct lay_legend_chans {
    uint32_t n, more;                      /* named; others that carried messages */
    uint32_t chan[LAY_LEGEND_CHANS];       /* index in m->chans */
    char name[LAY_LEGEND_CHANS][160];      /* "name (count)", the count in the picture */
    char wide[LAY_LEGEND_CHANS][160];      /* "name (count)", all the channel's: the room it takes */
} lay_legend_chans;
void lay_legend_chans_of(const cs_model *m, const uint32_t *shown, lay_legend_chans *out);

/* The marks of lay_mark_of, per state and, when blocked, reason. */
static inline lay_mark lay_mark_of(cs_state st, cs_reason r)
{
    switch (st) {
    case CS_ST_RUNNING: return LAY_MARK_RUNNING;
    case CS_ST_RUNNABLE: return LAY_MARK_RUNNABLE;
    case CS_ST_SYSCALL: return LAY_MARK_SYSCALL;
    case CS_ST_BLOCKED: break;
    default: return LAY_MARK_NONE;
    }
    switch (r) {
    case CS_R_CHAN_SEND: case CS_R_CHAN_RECV: case CS_R_SELECT: case CS_R_FOREVER:
        return LAY_MARK_BLOCK_CHAN;
    case CS_R_SYNC: case CS_R_COND: return LAY_MARK_BLOCK_SYNC;
    case CS_R_SLEEP: return LAY_MARK_SLEEP;
    case CS_R_NET: case CS_R_SYSCALL: return LAY_MARK_SYSCALL;
    case CS_R_PREEMPTED: return LAY_MARK_RUNNABLE;
    default: return LAY_MARK_BLOCK_OTHER;
    }
}


#endif
