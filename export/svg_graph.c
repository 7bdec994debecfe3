/* export/svg_graph.c — the communication graph as SVG (placeholder until
 * layout/graph.c lands). */
#include "svg_int.h"

bool exp__svg_graph(exp__svg *s, cs_err *err)
{
    (void)s;
    return CS_FAIL(err, CS_E_USAGE, CS_NO_OFFSET, "--layout graph is not available yet");
}
