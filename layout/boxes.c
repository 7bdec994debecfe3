/* layout/boxes.c — room for small labels (lod.h, lay_boxes): a picture
 * takes a box for each label it wants to print, and gets it only when it
 * meets no box taken before, so labels never print over each other; once
 * the list is full every further label is left out, which bounds the work
 * per picture. Used for the values printed beside exact messages' arrows,
 * by the renderer and the SVG alike. */
#include "graph.h"
#include "lod.h"

#include <string.h>

void lay_boxes_init(lay_boxes *b, float x0, float y0, float x1, float y1)
{
    memset(b, 0, sizeof *b);
    b->area[0] = x0, b->area[1] = y0, b->area[2] = x1, b->area[3] = y1;
}

bool lay_boxes_take(lay_boxes *b, float x0, float y0, float x1, float y1)
{
    if (b->n >= LAY_BOXES_MAX || x0 < b->area[0] || y0 < b->area[1] || x1 > b->area[2] || y1 > b->area[3])
        return false;
    for (uint32_t i = 0; i < b->n; i++) {
        const float *o = b->box[i];
        if (x0 < o[2] && o[0] < x1 && y0 < o[3] && o[1] < y1)
            return false;
    }
    float *n = b->box[b->n++];
    n[0] = x0, n[1] = y0, n[2] = x1, n[3] = y1;
    return true;
}

bool lay_msg_value(const cs_model *m, uint32_t msg, char out[LAY_VALUE_CAP])
{
    if (msg >= m->n_msgs || !cs_msg_exact(&m->msgs[msg]) || !cs_msg_value(m, msg))
        return false;
    const char *v = cs_model_str(m, cs_msg_value(m, msg));
    if (!v || !v[0])
        return false;
    size_t n = strlen(v);
    if (n <= LAY_VALUE_MAX) {
        memcpy(out, v, n + 1);
        return true;
    }
    n = lay_utf8_floor(v, LAY_VALUE_MAX);
    memcpy(out, v, n);
    memcpy(out + n, "\xE2\x80\xA6", 4); /* "…" and the NUL */
    return true;
}
