package main

import (
	"context"
	"fmt"
)

// streams measures what an open server-sent event stream costs the
// server: BenchmarkSSEOpenStreams, once, squeeze beside the library's
// streaming encoders it used before and the peers at the same coding and
// level.
func (r *Report) streams(ctx context.Context) error {
	r.section("Open streams: heap per server-sent event stream",
		"N streams held open in one process, each after five events of about 100 bytes, each flushed; the heap after two GCs, "+
			"less the heap before, divided by N. *Idle*: after a pause of 1.5 s, longer than `encoding.DefaultIdleRelease`; "+
			"*active*: right after the fifth event. `squeeze` is the zero Config; `squeeze-library` the same middleware with "+
			"the library's streaming encoder for the coding (what every stream got before the stream encoders); the peers at the "+
			"same coding and level. *B-sent/5-events* is what a client had received once the handler had flushed its five events: "+
			"0 means the middleware held them back (a heap of a few KiB then only says that nothing was compressed yet), and a "+
			"stream whose events do not reach the client is not streaming. *B/200-events* is the bytes on the wire of one stream "+
			"of 200 such events. "+
			"Each ratio is the column's value over squeeze's (above 1× means squeeze keeps less). "+
			"The library encoders and the peers stop at 1 000 streams, where they already hold gigabytes.")
	lines, cmdline, ok := r.benchOnce(ctx, "^BenchmarkSSEOpenStreams$")
	if !ok {
		return nil
	}
	r.benchTable(goBench{name: "SSEOpenStreams", metrics: []string{"KiB/idle-stream", "KiB/active-stream", "B-sent/5-events", "B/200-events"}}, lines)
	fmt.Fprintf(r.md, "```\n%s\n```\n\n", cmdline)
	return nil
}
