/* decode/chan_patched.c — exact messages from gotrace's patched-runtime
 * GoSend/GoRecv events (go-trace-format.md §7). Not yet wired: the model
 * does not carry those events yet, so there is nothing to pair. */
#include "chan.h"

bool dec__chan_patched(dec__chan_ctx *c, cs_err *err)
{
    (void)err;
    c->patched = false;
    return true;
}
