package encoding

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// flushRecorder is a ResponseWriter that keeps what it is sent and can be
// flushed, the connection of a stream held open.
type flushRecorder struct {
	h   http.Header
	out bytes.Buffer
}

func (f *flushRecorder) Header() http.Header         { return f.h }
func (f *flushRecorder) Write(p []byte) (int, error) { return f.out.Write(p) }
func (f *flushRecorder) WriteHeader(int)             {}
func (f *flushRecorder) Flush()                      {}

// openStreams starts n SSE responses through mw for a client accepting
// coding, each sending events and flushing after each, and returns once
// all have, leaving them open until the returned function is called.
func openStreams(mw *Middleware, coding string, n int, events [][]byte) (end func()) {
	hold := make(chan struct{})
	var sent, done sync.WaitGroup
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			w.Write(e)
			w.(http.Flusher).Flush()
		}
		sent.Done()
		<-hold
	}))
	sent.Add(n)
	done.Add(n)
	for range n {
		r := httptest.NewRequest("GET", "/events", nil)
		r.Header.Set("Accept-Encoding", coding)
		go func() {
			defer done.Done()
			h.ServeHTTP(discardConn{h: http.Header{}}, r)
		}()
	}
	sent.Wait()
	return func() { close(hold); done.Wait() }
}

// heapAfterGC is the live heap after two collections, the second emptying
// sync.Pool's victim cache.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The bounds the Streamer documentation states for one open stream through
// the zero Config, everything of the response counted (its writers, the
// request, the header): idle, once released, and active, holding its
// encoder while events flow.
const (
	idleStreamBound   = 64 << 10
	activeStreamBound = 256 << 10
)

// shortMatches returns n bytes made of many short matches and a few
// literals between them: the input that fills an encoder's block buffers
// most (a sequence or command every few bytes).
func shortMatches(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 5))
	words := []string{"abcd ", "efgh ", "ijkl ", "mnop ", "qrst ", "uvwx "}
	var b []byte
	for len(b) < n {
		b = append(b, words[rng.IntN(len(words))]...)
		if rng.IntN(3) == 0 {
			b = append(b, byte(rng.IntN(256)))
		}
	}
	return b[:n]
}

// TestStreamMemoryBounds enforces them over 200 open streams per coding
// (50 under the race detector): each after five events, idle and active;
// active after an event and then 256 KiB of short matches in flushes of
// 8 KiB, which grow the block buffers the most; and idle after a first
// write of 100 KiB (a snapshot, then updates), held back until the first
// flush. A stream that sends more than streamChunk between two flushes is
// a document in pieces, which holds the library's encoder until it idles
// (TestDocumentInPiecesGetsTheLibrarysBytes). A server holds thousands of streams
// open, so one must not cost its encoder's megabytes.
func TestStreamMemoryBounds(t *testing.T) {
	n := 200
	if raceEnabled {
		n = 50
	}
	cases := []struct {
		name   string
		events [][]byte
		idle   bool
		bound  int
	}{
		{"idle after five events", corpus.Events(5), true, idleStreamBound},
		{"active after five events", corpus.Events(5), false, activeStreamBound},
		{"active after 256 KiB in flushes of 8 KiB", append([][]byte{corpus.Events(1)[0]}, chunks(shortMatches(256<<10), 8<<10)...), false, activeStreamBound},
		// A snapshot, then updates: the held-back body's buffer goes back
		// once it is in the encoder, and the library's encoder of a
		// snapshot larger than streamChunk once the stream idles.
		{"idle after a 100 KiB snapshot", append([][]byte{shortMatches(100 << 10)}, corpus.Events(5)...), true, idleStreamBound},
	}
	for _, coding := range allCodings {
		for _, tc := range cases {
			after := -time.Duration(1) // never: the live state stays
			if tc.idle {
				after = 20 * time.Millisecond
			}
			mw := mustNew(t, Config{IdleRelease: after})
			before := heapAfterGC()
			end := openStreams(mw, coding, n, tc.events)
			if tc.idle {
				time.Sleep(10 * after)
			}
			per := float64(heapAfterGC()-before) / float64(n)
			end()
			t.Logf("%s, %s: %.1f KiB per open stream (bound %d KiB)", coding, tc.name, per/1024, tc.bound>>10)
			if per > float64(tc.bound) {
				t.Errorf("%s, %s: %.1f KiB per open stream, over the bound of %d KiB", coding, tc.name, per/1024, tc.bound>>10)
			}
		}
	}
}

// decodeStream decodes a whole response body of coding with Go's and the
// libraries' decoders. A gzip body must be one member: Chromium decodes
// only the first member of a body, silently.
func decodeStream(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	var err error
	switch coding {
	case "gzip":
		var z *gzip.Reader
		if z, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
			z.Multistream(false)
			r = z
		}
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(body))
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "zstd":
		var d *zstd.Decoder
		if d, err = zstd.NewReader(bytes.NewReader(body)); err == nil {
			defer d.Close()
			r = d
		}
	}
	if err != nil {
		t.Fatalf("%s: %v", coding, err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: decoding the stream: %v", coding, err)
	}
	return got
}

// released reports whether w's stream encoder has given back its live
// state.
func released(w http.ResponseWriter) bool {
	rw := w.(*responseWriter)
	rw.idle.mu.Lock()
	defer rw.idle.mu.Unlock()
	switch e := rw.enc.(type) {
	case *deflateStream:
		return e.enc == nil
	case interface{ isLive() bool }:
		return !e.isLive()
	}
	return false
}

// A stream released while idle goes on where it stopped: the next event
// continues the same zstd frame, brotli stream, gzip member or zlib stream
// (RFC 8878 §3.1.1.5: the last offsets carry over; RFC 7932 §4: the last
// distances), from the history kept. Each coding's decoder reads the whole
// body as one stream to every event written.
func TestStreamContinuesAfterIdleRelease(t *testing.T) {
	events := corpus.Events(60)
	want := bytes.Join(events, nil)
	mw := mustNew(t, Config{IdleRelease: 5 * time.Millisecond})
	for _, coding := range allCodings {
		var releases int
		h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i, e := range events {
				w.Write(e)
				w.(http.Flusher).Flush()
				if i%20 == 19 {
					deadline := time.Now().Add(5 * time.Second)
					for !released(w) && time.Now().Before(deadline) {
						time.Sleep(5 * time.Millisecond)
					}
					if released(w) {
						releases++
					}
				}
			}
		}))
		rec := &flushRecorder{h: http.Header{}}
		r := httptest.NewRequest("GET", "/events", nil)
		r.Header.Set("Accept-Encoding", coding)
		h.ServeHTTP(rec, r)
		if got := rec.h.Get("Content-Encoding"); got != coding {
			t.Fatalf("%s: Content-Encoding %q", coding, got)
		}
		if releases != 3 {
			t.Errorf("%s: the stream released %d times of 3 idle pauses", coding, releases)
		}
		if got := decodeStream(t, coding, rec.out.Bytes()); !bytes.Equal(got, want) {
			t.Errorf("%s: decoded %d bytes that differ from the %d written", coding, len(got), len(want))
		}
		t.Logf("%s: %d events, %d bytes in, %d out", coding, len(events), len(want), rec.out.Len())
	}
}

// A body that outgrows the buffer without a flush is a download, not a
// stream of events: it keeps the library's encoder at the level asked for,
// and with it the level's output size.
func TestUnflushedLongBodyKeepsLibraryEncoder(t *testing.T) {
	mw := mustNew(t, Config{BufferSize: 4096})
	h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(sampleText(8192))
		if w.(*responseWriter).streaming {
			t.Error("a download got a stream encoder")
		}
		w.(http.Flusher).Flush()
	}))
	for _, coding := range allCodings {
		rec := &flushRecorder{h: http.Header{}}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", coding)
		h.ServeHTTP(rec, r)
		if got := decodeStream(t, coding, rec.out.Bytes()); !bytes.Equal(got, sampleText(8192)) {
			t.Errorf("%s: decoded %d bytes that differ", coding, len(got))
		}
	}
}

// chunks cuts b into pieces of n bytes.
func chunks(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		k := min(n, len(b))
		out = append(out, b[:k])
		b = b[k:]
	}
	return out
}

// A stream that sends more than streamChunk bytes between two flushes is
// sending a document in pieces (a page streamed as it renders, a download
// through a proxy that flushes every write): zstd, gzip and deflate go on
// with the library's encoder at the level, with its bytes (a new zstd
// frame; the same DEFLATE data, seeded with the window), and back to the
// own encoder after an idle release; br, whose stream no other encoder can
// take over, stays with its own. Every body decodes as one gzip member.
func TestDocumentInPiecesGetsTheLibrarysBytes(t *testing.T) {
	doc := sampleText(512 << 10)
	for _, coding := range allCodings {
		// Long enough not to fire between the pieces, even under the race
		// detector.
		mw := mustNew(t, Config{IdleRelease: 200 * time.Millisecond})
		var live []bool // per piece, whether a library encoder was live
		h := mw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write(corpus.Events(1)[0]) // an event first: the stream encoder
			w.(http.Flusher).Flush()
			for _, piece := range chunks(doc, 64<<10) {
				w.Write(piece)
				w.(http.Flusher).Flush()
				live = append(live, libraryLive(w))
			}
			time.Sleep(600 * time.Millisecond) // idle: the library's encoder goes
			live = append(live, libraryLive(w))
			for _, e := range corpus.Events(3) {
				w.Write(e)
				w.(http.Flusher).Flush()
			}
		}))
		rec := &flushRecorder{h: http.Header{}}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", coding)
		h.ServeHTTP(rec, r)
		want := slices.Concat(corpus.Events(1)[0], doc, bytes.Join(corpus.Events(3), nil))
		if got := decodeStream(t, coding, rec.out.Bytes()); !bytes.Equal(got, want) {
			t.Fatalf("%s: decoded %d bytes that differ from the %d written", coding, len(got), len(want))
		}
		idle := live[len(live)-1]
		if coding == "br" {
			if slices.Contains(live, true) {
				t.Errorf("br: a library encoder took over a brotli stream")
			}
			continue
		}
		if !live[0] || idle {
			t.Errorf("%s: library encoder live per piece %v, after idling %v; want it from the first piece until the release", coding, live[:len(live)-1], idle)
		}
		// The body is the library's bytes, within what the switches cost
		// (a sync flush; a frame's end and start).
		var ref countWriter
		for _, c := range DefaultCodings() {
			if c.Codec.Name() != coding {
				continue
			}
			lw, err := c.Codec.NewWriter(&ref, c.Level)
			if err != nil {
				t.Fatal(err)
			}
			for _, piece := range slices.Concat([][]byte{corpus.Events(1)[0]}, chunks(doc, 64<<10), corpus.Events(3)) {
				lw.Write(piece)
				lw.Flush()
			}
			lw.Close()
		}
		t.Logf("%s: %d bytes, the library's streaming encoder %d", coding, rec.out.Len(), ref.n)
		if rec.out.Len() > ref.n+ref.n/50 {
			t.Errorf("%s: %d bytes, over the library's %d by more than 2 %%", coding, rec.out.Len(), ref.n)
		}
	}
}

// libraryLive reports whether w's stream Writer has a library encoder live.
func libraryLive(w http.ResponseWriter) bool {
	rw := w.(*responseWriter)
	rw.idle.mu.Lock()
	defer rw.idle.mu.Unlock()
	switch e := rw.enc.(type) {
	case *deflateStream:
		return e.lib != nil
	case interface{ libraryLive() bool }:
		return e.libraryLive()
	}
	return false
}

// A flush before the first byte sends the header but does not make the
// body a stream of events: a handler that flushes its header early and
// then writes a download (httputil.ReverseProxy flushes so) keeps the
// library's encoder at the level, and sends the bytes it would without
// the flush; one that goes on flushing small writes gets a stream encoder.
func TestFlushBeforeFirstByteLeavesTheEncoderToTheBody(t *testing.T) {
	body := sampleText(1 << 20)
	for _, coding := range allCodings {
		var plain []byte
		for _, early := range []bool{false, true} {
			var streaming bool
			h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if early {
					w.(http.Flusher).Flush()
				}
				for p := body; len(p) > 0; p = p[min(len(p), 32<<10):] {
					w.Write(p[:min(len(p), 32<<10)])
				}
				streaming = w.(*responseWriter).streaming
			}))
			rec := &flushRecorder{h: http.Header{}}
			r := httptest.NewRequest("GET", "/", nil)
			r.Header.Set("Accept-Encoding", coding)
			h.ServeHTTP(rec, r)
			if streaming {
				t.Errorf("%s, flushed early %v: a download got a stream encoder", coding, early)
			}
			if got := decodeStream(t, coding, rec.out.Bytes()); !bytes.Equal(got, body) {
				t.Fatalf("%s, flushed early %v: decoded %d bytes that differ", coding, early, len(got))
			}
			if !early {
				plain = rec.out.Bytes()
			} else if !bytes.Equal(rec.out.Bytes(), plain) {
				t.Errorf("%s: %d bytes after an early flush, %d without: not the same encoder", coding, rec.out.Len(), len(plain))
			}
		}

		var streaming bool
		h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			for _, e := range corpus.Events(3) {
				w.Write(e)
				w.(http.Flusher).Flush()
			}
			streaming = w.(*responseWriter).streaming
		}))
		rec := &flushRecorder{h: http.Header{}}
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", coding)
		h.ServeHTTP(rec, r)
		if !streaming {
			t.Errorf("%s: events after an early flush got no stream encoder", coding)
		}
		if got := decodeStream(t, coding, rec.out.Bytes()); !bytes.Equal(got, bytes.Join(corpus.Events(3), nil)) {
			t.Errorf("%s: events after an early flush decoded to %d other bytes", coding, len(got))
		}
	}
}

// failAfter takes n writes, then fails every one, as a connection whose
// client went away mid-stream.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, io.ErrClosedPipe
	}
	f.n--
	return len(p), nil
}

// A stream whose client went away can send nothing more: Release gives its
// live state back at once, whatever is pending, rather than holding it
// until the handler returns.
func TestReleaseAfterWriteErrorDropsTheLiveState(t *testing.T) {
	for _, c := range DefaultCodings() {
		// One write goes out (zstd's header with its first 8 KiB block,
		// DEFLATE's header, brotli's first block), then one fails with
		// input pending: zstd's and brotli's second block, DEFLATE's flush
		// as it moves past streamChunk to the library.
		w, err := c.Codec.(Streamer).NewStreamWriter(&failAfter{n: 1}, c.Level)
		if err != nil || w == nil {
			t.Fatalf("%s: no stream writer: %v", c.Codec.Name(), err)
		}
		n := streamChunk + 4<<10
		if c.Codec.Name() == "zstd" {
			n = streamChunk // not past it: the own encoder's two blocks
		}
		if _, err := w.Write(shortMatches(n)); err == nil {
			t.Fatalf("%s: a write to a failing connection reported no error", c.Codec.Name())
		}
		w.(Releaser).Release()
		live := false
		switch s := w.(type) {
		case *deflateStream:
			live = s.enc != nil || s.lib != nil
		case interface{ isLive() bool }:
			live = s.isLive()
		}
		if live {
			t.Errorf("%s: the live encoder stayed after a write error", c.Codec.Name())
		}
	}
}
