/* render/tooltip.c — picking and the hover tooltip: what is under the
 * mouse (goroutine, span, arrow) and a small panel describing it: id,
 * function, state and times, channel site and value when known. */
#include "rnd.h"

#include <stdio.h>
#include <string.h>

bool rnd_pick(rnd_renderer *r, const rnd_view *v, float x, float y, rnd_hit *out)
{
    *out = (rnd_hit){.span = UINT32_MAX, .t = CS_T_NONE};
    if (v->layout == RND_LANES)
        rnd__lanes_pick(r, v, x, y, out);
    else
        rnd__point_pick(r, v, x, y, out);
    /* in playback nothing that begins after its position is drawn yet */
    rnd__arrow a;
    if (v->now != CS_T_NONE && out->arrow && rnd__arrow_get(r, out->arrow, &a) && a.t0 > v->now)
        out->arrow = 0;
    if (v->now != CS_T_NONE && out->span != UINT32_MAX && cs_span_t0(r->m, out->span) > v->now)
        out->span = UINT32_MAX;
    r->hit = *out;
    return out->g || out->arrow;
}

static int lines_arrow(const rnd_renderer *r, const rnd__arrow *a, char l[][160])
{
    const cs_model *m = r->m;
    char t[32], d[32], gf[64], gt[64];
    rnd__fmt_dur(t, sizeof t, (double)(a->t0 - m->t_first));
    rnd__fmt_dur(d, sizeof d, (double)(rnd__arrow_t1(m, a) - a->t0));
    rnd__g_label(r, a->from, gf, sizeof gf);
    rnd__g_label(r, a->to, gt, sizeof gt);
    int n = 0;
    snprintf(l[n++], 160, "%s %s \xE2\x86\x92 %s", a->kind == LAY_ARROW_SYNC ? "wake-up" : a->kind == LAY_ARROW_CLOSE ? "close" : "message", gf, gt);
    snprintf(l[n++], 160, "sent at %s, received %s later", t, d);
    if (a->msg && a->msg <= m->n_msgs) {
        const cs_msg *msg = &m->msgs[a->msg - 1];
        uint32_t ch = cs_msg_chan(m, a->msg - 1);
        if (ch && ch < m->n_chans)
            snprintf(l[n++], 160, "channel %s", cs_model_str(m, m->chans[ch].name));
        cs_sid value = cs_msg_value(m, a->msg - 1);
        if (value)
            snprintf(l[n++], 160, "value %s", cs_model_str(m, value));
        snprintf(l[n++], 160, "%s", cs_msg_exact(msg) ? "exact (annotated)" : "inferred from block/unblock");
    }
    return n;
}

static int lines_g(const rnd_renderer *r, const rnd_hit *h, char l[][160])
{
    const cs_model *m = r->m;
    const cs_goroutine *g = &m->g[h->g];
    char a[32], b[32];
    int n = 0;
    snprintf(l[n++], 160, "G%llu %s", (unsigned long long)g->goid,
             g->name ? cs_model_str(m, g->name) : "(unknown function)");
    if (h->span != UINT32_MAX) {
        rnd__fmt_dur(a, sizeof a, (double)(cs_span_t0(m, h->span) - m->t_first));
        rnd__fmt_dur(b, sizeof b, (double)(cs_span_t1(m, h->span) - cs_span_t0(m, h->span)));
        int st = cs_span_state(m, h->span), rs = cs_span_reason(m, h->span);
        snprintf(l[n++], 160, "%s%s%s from %s for %s", cs_state_name((cs_state)st),
                 st == CS_ST_BLOCKED ? ": " : "", st == CS_ST_BLOCKED ? cs_reason_name((cs_reason)rs) : "", a, b);
    }
    rnd__fmt_dur(a, sizeof a, (double)(g->create_ns - m->t_first));
    if (g->end_ns != CS_T_NONE) {
        rnd__fmt_dur(b, sizeof b, (double)(g->end_ns - m->t_first));
        snprintf(l[n++], 160, "%s %s, ended %s", (g->flags & CS_G_AT_START) ? "existed at" : "created", a, b);
    } else {
        snprintf(l[n++], 160, "%s %s, alive at the end", (g->flags & CS_G_AT_START) ? "existed at" : "created", a);
    }
    if (g->parent)
        snprintf(l[n++], 160, "parent G%llu", (unsigned long long)m->g[g->parent].goid);
    return n;
}

void rnd__tooltip(rnd_renderer *r, const rnd_view *v, const rnd__theme *th, int w, int h)
{
    char l[6][160];
    int n = 0;
    rnd__arrow a;
    if (r->hit.arrow && rnd__arrow_get(r, r->hit.arrow, &a))
        n = lines_arrow(r, &a, l);
    else if (r->hit.g && r->hit.g == v->hover)
        n = lines_g(r, &r->hit, l);
    if (!n)
        return;
    float bw = 0;
    for (int i = 0; i < n; i++) {
        float tw = rnd__text_width(&r->font, RND__F12, l[i]);
        bw = tw > bw ? tw : bw;
    }
    bw += 20;
    float bh = 10 + 17 * (float)n, x = v->tip_x + 16, y = v->tip_y + 16;
    if (x + bw > (float)w)
        x = v->tip_x - bw - 8;
    if (y + bh > (float)h)
        y = v->tip_y - bh - 8;
    rnd__rect(&r->sc, x, y, x + bw, y + bh, th->panel | 0xff);
    rnd__line(&r->sc, x, y, x + bw, y, 1.0f, th->fg_dim);
    for (int i = 0; i < n; i++)
        rnd__text(&r->sc, &r->font, RND__F12, x + 10, y + 18 + 17 * (float)i, i ? th->fg_dim : th->fg, l[i]);
}
