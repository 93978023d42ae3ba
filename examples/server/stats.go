package main

import (
	"net/http"
	"sync"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// recentLen is how many responses the page's "recent" list shows.
const recentLen = 6

// tally keeps what the OnResponse hook reports, per coding and for the last
// few responses. It holds a fixed number of entries whatever the requests:
// the codings are the middleware's, and a response is listed by the route
// that served it (its ServeMux pattern, one of the demo's own strings),
// never by the path a client sent, which on an exposed demo would put
// anyone's text into every visitor's page.
type tally struct {
	mu     sync.Mutex
	stats  map[string]*codingStats
	recent []response // the last recentLen, oldest first
}

// response is one response as the page lists it.
type response struct {
	Route    string // the ServeMux pattern, such as "GET /api/items"
	Coding   string
	Origin   string // who made the bytes sent: encoder, cache or handler (encoding.Origin)
	Skip     string // why it went out uncompressed (encoding.Skip), "" if it did not
	BytesIn  int64
	BytesOut int64
	Time     time.Duration
}

type codingStats struct {
	Responses int64
	BytesIn   int64
	BytesOut  int64
	Time      time.Duration
}

// statsReply is the JSON that /stats sends.
type statsReply struct {
	Codings map[string]codingStats
	Recent  []response
}

func newTally() *tally { return &tally{stats: map[string]*codingStats{}} }

// record is the middleware's OnResponse hook. The middleware wraps each
// route on its own, so the ServeMux has set r.Pattern by the time it runs;
// requests that match no route never reach the middleware.
func (t *tally) record(r *http.Request, s encoding.Stats) {
	// The page polls /stats; counting those polls would chart the chart.
	if r.Pattern == "" || r.Pattern == statsRoute {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	name := s.Coding
	if name == "" {
		name = "identity"
	}
	c := t.stats[name]
	if c == nil {
		c = new(codingStats)
		t.stats[name] = c
	}
	c.Responses++
	c.BytesIn += s.BytesIn
	c.BytesOut += s.BytesOut
	c.Time += s.Duration
	if len(t.recent) == recentLen {
		t.recent = append(t.recent[:0], t.recent[1:]...)
	}
	t.recent = append(t.recent, response{r.Pattern, name, s.Origin.String(), s.Skip.String(), s.BytesIn, s.BytesOut, s.Duration})
}

// reset forgets everything recorded so far.
func (t *tally) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.stats)
	t.recent = t.recent[:0]
}

func (t *tally) snapshot() statsReply {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := statsReply{Codings: make(map[string]codingStats, len(t.stats)), Recent: append([]response(nil), t.recent...)}
	for k, v := range t.stats {
		out.Codings[k] = *v
	}
	return out
}
