package encoding

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// The tests in this file drive real peers through flushed streams
// (server-sent events) that the stream encoders of stream_own.go and
// stream_deflate.go compress: one zstd frame, one brotli stream, one gzip
// member or zlib stream per response, whose encoder gives its live state
// back every peerIdleEvery events (the handler waits until it has) and is
// re-seeded from 8 KiB of history by the next event, mid-frame.

const (
	// peerEventCount is how many events a stream carries.
	peerEventCount = 200
	// peerIdleEvery is how often, in events, the handler goes idle until
	// the encoder has released its live state.
	peerIdleEvery = 50
	// peerIdleRelease is the streams' Config.IdleRelease.
	peerIdleRelease = 20 * time.Millisecond
	// peerIdlePause is the least a handler stays idle: past peerIdleRelease,
	// as a real stream waiting for its next event would.
	peerIdlePause = 3 * peerIdleRelease
	// peerReleaseTimeout bounds the wait for a release, and peerAckTimeout
	// the wait for the client to show it decoded an event.
	peerReleaseTimeout = 5 * time.Second
	peerAckTimeout     = 10 * time.Second
	// peerRunTimeout bounds one peer run that the test reads as it goes.
	peerRunTimeout = 60 * time.Second
)

// peerEvent is one server-sent event: its id is its index, its data one
// line of JSON-like ASCII text of about 100 bytes whose values vary from
// event to event. The first event after each idle pause starts with a
// comment line (which EventSource ignores) of runs of bytes that appear
// nowhere before: one repeating every 4 bytes, then one of a single byte,
// so that right at the start of the re-seeded encoder's input come matches
// at distances 4 and 1, which the coding's start state holds (zstd's
// repeat offsets 1, 4, 8; brotli's last distances 4, 11, 15, 16). The
// encoder codes such a match as a repeat if its state holds the distance,
// so the stream decodes right only if the re-seeded encoder continued from
// the coding's true running state rather than from a fresh one.
type peerEvent struct {
	id      int
	comment string
	data    string
}

func (e peerEvent) wire() []byte {
	var b []byte
	if e.comment != "" {
		b = fmt.Appendf(b, ": %s\n", e.comment)
	}
	return fmt.Appendf(b, "id: %d\ndata: %s\n\n", e.id, e.data)
}

// peerRunBytes are bytes that the events' text never holds otherwise, five
// for each idle pause.
const peerRunBytes = "~^|`!#$%&'()*+-/;<=>?@_\\"

func peerEvents(n int) []peerEvent {
	rng := rand.New(rand.NewPCG(uint64(n), 35))
	words := []string{"squeeze", "stream", "flush", "idle", "release", "seed", "frame", "block",
		"window", "history", "zstd", "brotli", "gzip", "deflate", "event", "source", "vary"}
	word := func() string { return words[rng.IntN(len(words))] }
	events := make([]peerEvent, n)
	for i := range events {
		events[i] = peerEvent{id: i, data: fmt.Sprintf(`{"i":%d,"user":"u%04d","op":"%s","ratio":%.4f,"tags":["%s","%s"],"note":"%s %s %d"}`,
			i, rng.IntN(10000), word(), rng.Float64(), word(), word(), word(), word(), rng.IntN(1<<20))}
		if i > 0 && i%peerIdleEvery == 0 {
			// Five bytes for each pause, none seen before it.
			k := 5 * (i/peerIdleEvery - 1) % len(peerRunBytes)
			events[i].comment = strings.Repeat(peerRunBytes[k:k+4], 6) + " " + strings.Repeat(peerRunBytes[k+4:k+5], 24)
		}
	}
	return events
}

// peerEventsBody is every event on the wire, as the handler writes them.
func peerEventsBody(events []peerEvent) []byte {
	var b bytes.Buffer
	for _, e := range events {
		b.Write(e.wire())
	}
	return b.Bytes()
}

// peerEventServer serves events as text/event-stream through New(Config{
// IdleRelease: peerIdleRelease}): at /sse with the default codings, so the
// client's Accept-Encoding picks one, and at /sse/{coding} offering that
// coding alone, for a browser, whose Accept-Encoding a page cannot set.
// Each codec is a user's Codec forwarding NewStreamWriter to the built-in
// (see Streamer), whose Writer counts, per path, the releases that gave
// state back.
type peerEventServer struct {
	*httptest.Server
	events []peerEvent

	// releases are the release counters by URL path, made before the
	// server starts.
	releases map[string]*peerReleases
	// acks, when set, is where the test sends the index of each event the
	// client decoded; the handler writes the next only after that.
	acks chan int

	mu       sync.Mutex
	stats    map[string]Stats // the last response's, by URL path
	problems []string         // what went wrong in a handler
}

func newPeerEventServer(t *testing.T, events []peerEvent, acked bool, routes func(*http.ServeMux)) *peerEventServer {
	t.Helper()
	s := &peerEventServer{events: events, stats: map[string]Stats{}, releases: map[string]*peerReleases{"/sse": new(peerReleases)}}
	if acked {
		s.acks = make(chan int, len(events))
	}
	record := func(r *http.Request, st Stats) {
		s.mu.Lock()
		s.stats[r.URL.Path] = st
		s.mu.Unlock()
	}
	var all []Coding
	for _, c := range DefaultCodings() {
		all = append(all, Coding{Codec: peerReleaseCodec{c.Codec, s.releases["/sse"]}, Level: c.Level})
	}
	mux := http.NewServeMux()
	mux.Handle("/sse", mustNew(t, Config{IdleRelease: peerIdleRelease, Codings: all, OnResponse: record}).Handler(http.HandlerFunc(s.serveEvents)))
	for _, c := range DefaultCodings() {
		path := "/sse/" + c.Codec.Name()
		s.releases[path] = new(peerReleases)
		one := mustNew(t, Config{IdleRelease: peerIdleRelease, Codings: []Coding{{Codec: peerReleaseCodec{c.Codec, s.releases[path]}, Level: c.Level}}, OnResponse: record})
		mux.Handle(path, one.Handler(http.HandlerFunc(s.serveEvents)))
	}
	if routes != nil {
		routes(mux)
	}
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *peerEventServer) problem(format string, args ...any) {
	s.mu.Lock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

// check fails t with what went wrong in the handlers, and returns the
// Stats of the last response at path, which must be in coding and carry
// every event.
func (s *peerEventServer) check(t *testing.T, path, coding string) Stats {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.problems {
		t.Errorf("%s: handler: %s", coding, p)
	}
	s.problems = nil
	st, ok := s.stats[path]
	if !ok {
		t.Errorf("%s: no response reported at %s", coding, path)
		return st
	}
	if want := int64(len(peerEventsBody(s.events))); st.Coding != coding || st.BytesIn != want {
		t.Errorf("%s: the middleware sent %q with %d bytes in; want %s with %d", coding, st.Coding, st.BytesIn, coding, want)
	}
	return st
}

// serveEvents writes the events, flushing each, going idle until the
// encoder has released every peerIdleEvery events, and, with acks, waiting
// for the client to decode each before writing the next.
func (s *peerEventServer) serveEvents(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	rc := http.NewResponseController(w)
	for i, e := range s.events {
		if i > 0 && i%peerIdleEvery == 0 && !s.releases[r.URL.Path].wait(r.Context()) {
			s.problem("no release within %v of going idle before event %d", peerReleaseTimeout, i)
			return
		}
		if _, err := w.Write(e.wire()); err != nil {
			s.problem("write of event %d: %v", i, err)
			return
		}
		if err := rc.Flush(); err != nil {
			s.problem("flush of event %d: %v", i, err)
			return
		}
		if s.acks == nil {
			continue
		}
		select {
		case got := <-s.acks:
			if got != i {
				s.problem("the client acknowledged event %d after the flush of event %d", got, i)
				return
			}
		case <-time.After(peerAckTimeout):
			s.problem("the client did not decode event %d within %v of its flush: the stream does not deliver it", i, peerAckTimeout)
			return
		case <-r.Context().Done():
			s.problem("the client went away after event %d", i)
			return
		}
	}
}

// peerReleases counts the releases of the streams at one path (one at a
// time): idle is set by a release and cleared by the next Write.
type peerReleases struct {
	idle atomic.Bool
	n    atomic.Int64
}

// wait stays idle for peerIdlePause and then until the encoder has
// released its state since the last write.
func (rs *peerReleases) wait(ctx context.Context) bool {
	time.Sleep(peerIdlePause)
	deadline := time.Now().Add(peerReleaseTimeout)
	for !rs.idle.Load() {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// peerReleaseCodec is a user's Codec around a built-in one that
// forwards NewStreamWriter, and wraps the stream Writer so that the
// server sees its releases.
type peerReleaseCodec struct {
	Codec
	rs *peerReleases
}

func (c peerReleaseCodec) NewStreamWriter(w io.Writer, level int) (Writer, error) {
	sw, err := c.Codec.(Streamer).NewStreamWriter(w, level)
	if sw == nil || err != nil {
		return sw, err
	}
	if _, ok := sw.(Releaser); !ok {
		return nil, fmt.Errorf("the %s stream Writer %T does not implement Releaser", c.Name(), sw)
	}
	return &peerReleaseWriter{Writer: sw, rs: c.rs}, nil
}

// peerReleaseWriter counts the releases that find nothing pending, as
// the built-in Writers do; the middleware calls all its methods under one
// lock.
type peerReleaseWriter struct {
	Writer
	rs    *peerReleases
	dirty bool
}

func (w *peerReleaseWriter) Write(p []byte) (int, error) {
	w.dirty = len(p) > 0 || w.dirty
	w.rs.idle.Store(false)
	return w.Writer.Write(p)
}

func (w *peerReleaseWriter) Flush() error {
	w.dirty = false
	return w.Writer.Flush()
}

func (w *peerReleaseWriter) Release() {
	if !w.dirty {
		w.rs.n.Add(1)
		w.rs.idle.Store(true)
	}
	w.Writer.(Releaser).Release()
}

func (w *peerReleaseWriter) Reset(dst io.Writer) {
	w.dirty = false
	w.Writer.Reset(dst)
}

// peerWantReleases is the least number of releases one stream makes: one per
// idle pause.
const peerWantReleases = (peerEventCount - 1) / peerIdleEvery

// TestStreamedEventsAcrossIdleReleaseDecodeInCurl: curl --compressed, with
// libcurl's zstd, brotli and zlib decoders, decodes a stream of flushed
// events whose encoder released its state and was re-seeded mid-stream to
// exactly the bytes the handler wrote, for each coding.
func TestStreamedEventsAcrossIdleReleaseDecodeInCurl(t *testing.T) {
	curl := interop.Curl(t)
	events := peerEvents(peerEventCount)
	body := peerEventsBody(events)
	srv := newPeerEventServer(t, events, false, nil)
	for _, coding := range allCodings {
		before := srv.releases["/sse"].n.Load()
		out := filepath.Join(t.TempDir(), "body")
		headers := strings.ToLower(curl.Run(t, "-sS", "--compressed", "--max-time", "60",
			"-H", "Accept-Encoding: "+coding, "-D", "-", "-o", out, srv.URL+"/sse"))
		if !strings.Contains(headers, "content-encoding: "+coding+"\r\n") || !strings.Contains(headers, "content-type: text/event-stream") {
			t.Errorf("%s: curl saw headers\n%s", coding, headers)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, body) {
			t.Errorf("%s: curl decoded %d bytes that differ from the %d written (first difference at %d)", coding, len(got), len(body), peerFirstDiff(got, body))
		}
		st := srv.check(t, "/sse", coding)
		if n := srv.releases["/sse"].n.Load() - before; n < peerWantReleases {
			t.Errorf("%s: %d releases in the stream, want at least %d", coding, n, peerWantReleases)
		}
		t.Logf("%s: %d events, %d bytes in, %d out, %d releases", coding, len(events), st.BytesIn, st.BytesOut, srv.releases["/sse"].n.Load()-before)
	}
}

// TestStreamedEventsAcrossIdleReleaseDecodeInPython: Python's gzip, zlib,
// brotli and zstandard modules, decoders that share no code with ours,
// decode the same streams to the bytes written; each stream is one gzip
// member, zlib stream, brotli stream or zstd frame (a release continues
// it, it never starts another), and ends properly.
func TestStreamedEventsAcrossIdleReleaseDecodeInPython(t *testing.T) {
	py := interop.Python(t, "brotli", "zstandard")
	events := peerEvents(peerEventCount)
	body := peerEventsBody(events)
	sum := sha256.Sum256(body)
	srv := newPeerEventServer(t, events, false, nil)
	// units decodes data as a sequence of gzip members, zlib streams or
	// zstd frames and counts them; each must end. zstd is decoded again
	// with a reader that reads across frames, as a client would.
	const script = `
import sys, io, urllib.request, gzip, zlib, hashlib, brotli, zstandard
def units(data, new):
    out, n = [], 0
    while data:
        d = new()
        out.append(d.decompress(data))
        if not d.eof:
            raise ValueError("unit %d does not end" % (n + 1))
        n, data = n + 1, d.unused_data
    return b"".join(out), n
url, coding = sys.argv[1], sys.argv[2]
req = urllib.request.Request(url, headers={"Accept-Encoding": coding})
with urllib.request.urlopen(req, timeout=60) as r:
    got, ctype, raw = r.headers.get("Content-Encoding"), r.headers.get("Content-Type"), r.read()
if coding == "gzip":
    dec, n = units(raw, lambda: zlib.decompressobj(31))
    if gzip.decompress(raw) != dec:
        raise ValueError("gzip.decompress and zlib disagree")
elif coding == "deflate":
    dec, n = units(raw, lambda: zlib.decompressobj())
    if zlib.decompress(raw) != dec:
        raise ValueError("zlib.decompress and decompressobj disagree")
elif coding == "br":
    dec, n = brotli.decompress(raw), 1
elif coding == "zstd":
    dec, n = units(raw, lambda: zstandard.ZstdDecompressor().decompressobj())
    across = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw), read_across_frames=True).read()
    if across != dec:
        raise ValueError("zstd stream_reader(read_across_frames=True) and decompressobj disagree")
print(got, ctype, n, len(raw), hashlib.sha256(dec).hexdigest())
`
	for _, coding := range allCodings {
		before := srv.releases["/sse"].n.Load()
		f := strings.Fields(py.Run(t, "-c", script, srv.URL+"/sse", coding))
		if len(f) != 5 {
			t.Errorf("python, %s: printed %q", coding, f)
			continue
		}
		if f[0] != coding || f[1] != "text/event-stream" || f[2] != "1" || f[4] != hex.EncodeToString(sum[:]) {
			t.Errorf("python, %s: Content-Encoding %s, Content-Type %s, %s frames or members, SHA-256 %s; want %s, text/event-stream, 1, %x",
				coding, f[0], f[1], f[2], f[4], coding, sum)
		}
		srv.check(t, "/sse", coding)
		if n := srv.releases["/sse"].n.Load() - before; n < peerWantReleases {
			t.Errorf("python, %s: %d releases in the stream, want at least %d", coding, n, peerWantReleases)
		}
	}
}

// TestStreamedEventsReachCurlOneByOne: curl -N decodes each event, and
// writes it out, before the handler writes the next (the handler waits
// for the test to have read it from curl), for each coding, released and
// re-seeded mid-stream: a flush makes everything written so far decodable
// and puts it on the wire, and a release does not hold anything back.
func TestStreamedEventsReachCurlOneByOne(t *testing.T) {
	curl := interop.Curl(t)
	events := peerEvents(peerEventCount)
	srv := newPeerEventServer(t, events, true, nil)
	for _, coding := range allCodings {
		before := srv.releases["/sse"].n.Load()
		cmd := curl.Command("-sS", "-N", "--compressed", "--max-time", "60", "-H", "Accept-Encoding: "+coding,
			"-w", "\n#end %{content_type} %header{content-encoding}\n", srv.URL+"/sse")
		peerReadOneByOne(t, cmd, srv, coding, "#end text/event-stream "+coding+"\n")
		srv.check(t, "/sse", coding)
		if n := srv.releases["/sse"].n.Load() - before; n < peerWantReleases {
			t.Errorf("%s: %d releases in the stream, want at least %d", coding, n, peerWantReleases)
		}
	}
}

// TestStreamedEventsReachPythonOneByOne: Python, feeding what arrives on
// the connection to incremental decoders (zlib.decompressobj,
// brotli.Decompressor, zstandard's decompressobj), decodes each event
// before the handler writes the next, for each coding, released and
// re-seeded mid-stream, and sees the stream end properly.
func TestStreamedEventsReachPythonOneByOne(t *testing.T) {
	py := interop.Python(t, "brotli", "zstandard")
	events := peerEvents(peerEventCount)
	srv := newPeerEventServer(t, events, true, nil)
	const script = `
import sys, urllib.request, zlib, brotli, zstandard
url, coding = sys.argv[1], sys.argv[2]
class Zstd:
    def __init__(self):
        self.d, self.frames = zstandard.ZstdDecompressor().decompressobj(), 1
    def process(self, b):
        out = self.d.decompress(b)
        while self.d.eof and self.d.unused_data:
            rest = self.d.unused_data
            self.d, self.frames = zstandard.ZstdDecompressor().decompressobj(), self.frames + 1
            out += self.d.decompress(rest)
        return out
    def end(self):
        return "ended" if self.d.eof and self.frames == 1 else "eof=%s frames=%d" % (self.d.eof, self.frames)
class Zlib:
    def __init__(self, wbits):
        self.d = zlib.decompressobj(wbits)
    def process(self, b):
        return self.d.decompress(b)
    def end(self):
        return "ended" if self.d.eof and not self.d.unused_data else "eof=%s unused=%d" % (self.d.eof, len(self.d.unused_data))
class Br:
    def __init__(self):
        self.d = brotli.Decompressor()
    def process(self, b):
        return self.d.process(b)
    def end(self):
        return "ended" if self.d.is_finished() else "unfinished"
dec = {"gzip": lambda: Zlib(31), "deflate": lambda: Zlib(15), "br": Br, "zstd": Zstd}[coding]()
req = urllib.request.Request(url, headers={"Accept-Encoding": coding})
out = sys.stdout.buffer
with urllib.request.urlopen(req, timeout=60) as r:
    got = r.headers.get("Content-Encoding")
    while True:
        chunk = r.read1(65536)
        if not chunk:
            break
        out.write(dec.process(chunk))
        out.flush()
out.write(("\n#end %s %s\n" % (got, dec.end())).encode())
out.flush()
`
	for _, coding := range allCodings {
		before := srv.releases["/sse"].n.Load()
		peerReadOneByOne(t, py.Command("-c", script, srv.URL+"/sse", coding), srv, coding, "#end "+coding+" ended\n")
		srv.check(t, "/sse", coding)
		if n := srv.releases["/sse"].n.Load() - before; n < peerWantReleases {
			t.Errorf("python, %s: %d releases in the stream, want at least %d", coding, n, peerWantReleases)
		}
	}
}

// peerReadOneByOne runs cmd, which prints the decoded stream as it arrives
// and then "\n"+trailer, reads each event from its output and tells srv
// that the client has it, so the handler writes the next.
func peerReadOneByOne(t *testing.T, cmd *exec.Cmd, srv *peerEventServer, coding, trailer string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), peerRunTimeout)
	defer cancel()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: start %s: %v", coding, cmd.Path, err)
	}
	peer := filepath.Base(cmd.Path)
	// The peer is killed when the time is up, which ends the reads below;
	// stderr is read only once it has exited.
	stopWatch := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	defer stopWatch()
	waited := false
	wait := func() error {
		if waited {
			return nil
		}
		waited = true
		return cmd.Wait()
	}
	defer func() { cmd.Process.Kill(); wait() }()
	fail := func(format string, args ...any) {
		t.Helper()
		cmd.Process.Kill()
		wait()
		srv.mu.Lock()
		handler := strings.Join(srv.problems, "; ")
		srv.mu.Unlock()
		t.Fatalf("%s: "+format+"; %s said: %s; the handler: %s", append(append([]any{coding}, args...), peer, stderr.String(), handler)...)
	}
	lines := bufio.NewReader(stdout)
	for i, e := range srv.events {
		want := e.wire()
		got := make([]byte, len(want))
		if n, err := io.ReadFull(lines, got); err != nil {
			fail("event %d: %v after %q", i, err, got[:n])
		}
		if !bytes.Equal(got, want) {
			fail("event %d decoded as %q, want %q", i, got, want)
		}
		srv.acks <- i
	}
	rest, err := io.ReadAll(lines)
	if err != nil || string(rest) != "\n"+trailer {
		fail("after the events the peer printed %q (%v), want %q", rest, err, "\n"+trailer)
	}
	if err := wait(); err != nil {
		t.Errorf("%s: %s: %v; stderr: %s", coding, peer, err, stderr.String())
	}
}

// peerEventSourcePage opens an EventSource on /sse/{coding} for each coding in
// turn, checks that the events arrive in order (their id and the index in
// their data), that their data has the length and FNV-1a hash the server
// computed, then closes the source before the server ends the stream (so
// it never reconnects). It writes one line per coding into #out, sets the
// title to "done" and reports to /done, which lets the last script, /wait,
// load: until then the page keeps loading, so headless Chromium does not
// dump the DOM before the streams have run (an EventSource does not hold
// virtual time back).
const peerEventSourcePage = `<!doctype html><title>start</title><pre id="out">running</pre><script>
const codings = %s, total = %d, wantChars = %d, wantHash = %d;
function fnv(h, s) {
  for (let k = 0; k < s.length; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 16777619) >>> 0 }
  return h;
}
function stream(coding) {
  return new Promise(resolve => {
    const es = new EventSource("/sse/" + coding);
    let next = 0, h = 2166136261, chars = 0;
    const end = line => { es.close(); resolve(line) };
    es.onmessage = e => {
      let i = -1;
      try { i = JSON.parse(e.data).i } catch (x) { }
      if (i !== next || e.lastEventId !== String(next)) {
        end("BAD " + coding + " event " + next + " came as index " + i + ", id " + e.lastEventId);
        return;
      }
      h = fnv(h, e.data + "\n");
      chars += e.data.length;
      if (++next === total) {
        end((chars === wantChars && h === wantHash ? "ok " : "BAD ") + coding + " events " + next + " chars " + chars + " fnv " + h);
      }
    };
    es.onerror = () => end("BAD " + coding + " error after " + next + " events");
  });
}
(async () => {
  const lines = [];
  for (const coding of codings) lines.push(await stream(coding));
  document.getElementById("out").textContent = lines.join("\n") + "\n";
  document.title = "done";
  await fetch("/done", {method: "POST", body: lines.join("\n")});
})();
</script><script src="/wait"></script>`

// TestStreamedEventsAcrossIdleReleaseDecodeInChromiumEventSource: headless
// Chromium's EventSource, served over http://127.0.0.1 so it offers br and
// zstd, decodes a zstd, a br, a gzip and a deflate stream of events
// released and re-seeded mid-stream (each through a middleware offering
// that coding alone, with the zero Config's other fields) event by event,
// in order, to the data the server sent.
func TestStreamedEventsAcrossIdleReleaseDecodeInChromiumEventSource(t *testing.T) {
	browser := interop.Chromium(t)
	events := peerEvents(peerEventCount)
	h := fnv.New32a()
	chars := 0
	for _, e := range events {
		io.WriteString(h, e.data+"\n")
		chars += len(e.data)
	}
	page := fmt.Sprintf(peerEventSourcePage, `["`+strings.Join(allCodings, `","`)+`"]`, len(events), chars, h.Sum32())
	done := make(chan string, 4)
	var reportMu sync.Mutex
	var report string
	srv := newPeerEventServer(t, events, false, func(mux *http.ServeMux) {
		mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			io.WriteString(w, page)
		})
		mux.HandleFunc("POST /done", func(w http.ResponseWriter, r *http.Request) {
			got, _ := io.ReadAll(r.Body)
			done <- string(got)
		})
		mux.HandleFunc("/wait", func(w http.ResponseWriter, r *http.Request) {
			select {
			case got := <-done:
				reportMu.Lock()
				report = got
				reportMu.Unlock()
			case <-r.Context().Done():
			case <-time.After(30 * time.Second):
			}
			w.Header().Set("Content-Type", "text/javascript")
		})
	})

	start := time.Now()
	dom := browser.WaitDOM(t, srv.URL+"/", "<title>done</title>")
	t.Logf("Chromium read %d streams of %d events in %v", len(allCodings), len(events), time.Since(start).Round(time.Millisecond))
	for _, coding := range allCodings {
		want := "ok " + coding + " events " + strconv.Itoa(len(events)) + " chars " + strconv.Itoa(chars) + " fnv " + strconv.FormatUint(uint64(h.Sum32()), 10) + "\n"
		if !strings.Contains(dom, want) {
			t.Errorf("Chromium, %s: no %q in the page", coding, strings.TrimSpace(want))
		}
		st := srv.check(t, "/sse/"+coding, coding)
		n := srv.releases["/sse/"+coding].n.Load()
		if n < peerWantReleases {
			t.Errorf("Chromium, %s: %d releases in the stream, want at least %d", coding, n, peerWantReleases)
		}
		t.Logf("%s: %d bytes in, %d out, %d releases", coding, st.BytesIn, st.BytesOut, n)
	}

	if t.Failed() {
		reportMu.Lock()
		t.Logf("page's report: %q\nDOM:\n%s", report, dom)
		reportMu.Unlock()
	}
}

// peerFirstDiff returns the index of the first byte where a and b differ.
func peerFirstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
