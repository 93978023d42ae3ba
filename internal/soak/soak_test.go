package soak_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

var (
	soakFor   = flag.Duration("soak", 0, "run TestSoak this long (default: a short run of a few seconds)")
	soakConns = flag.Int("soak.conns", 0, "WebSocket connections in TestSoak (default 16, or 200 with -soak)")
)

// tally counts what the clients did and what went wrong, by kind.
type tally struct {
	mu     sync.Mutex
	done   map[string]int
	errs   map[string]int
	sample []string // the first few errors, for the failure message
}

func (t *tally) add(kind string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err == nil {
		t.done[kind]++
		return
	}
	t.errs[kind]++
	if len(t.sample) < 5 {
		t.sample = append(t.sample, kind+": "+err.Error())
	}
}

// point is one sample of the process.
type point struct {
	at         time.Duration
	mem        mem
	goroutines int
}

// TestSoak drives mixed traffic through one loopback server: GET and POST
// of an API in every coding, SSE streams, static files served from
// sidecars and from the fallback cache, and WebSocket connections
// exchanging messages. Warm-up lasts until every WebSocket connection is up
// and every HTTP client has sent one request of each kind, however long a
// loaded machine takes; the run then goes on for at least minSamples
// samples. It requires zero errors, a live heap that stays flat after
// warm-up (the last quarter's peak within 25 % + 16 MiB of the first
// half's), a resident set size that checkRSS finds explained by the GC goal
// and flat, and, once the clients have closed their connections, the
// goroutine count back where it was before they started.
func TestSoak(t *testing.T) {
	dur, conns := 4*time.Second, 16
	if *soakFor > 0 {
		dur, conns = *soakFor, 200
	} else if testing.Short() {
		dur = 2 * time.Second
	}
	if *soakConns > 0 {
		conns = *soakConns
	}
	// Long runs space messages out so most connections sit idle, as real
	// ones do, and give their codec state back (IdleRelease).
	gap := 200 * time.Millisecond
	if conns > 100 {
		gap = 2 * time.Second
	}
	const cacheBytes = 256 << 10
	s := newSite()
	api := text(1, 16<<10)
	ws := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := wsdeflate.Accept(w, r, &wsdeflate.AcceptOptions{IdleRelease: 200 * time.Millisecond})
		if err != nil {
			return
		}
		ctx := r.Context()
		for {
			typ, msg, err := c.Read(ctx)
			if err != nil {
				return
			}
			if err := c.Write(ctx, typ, msg); err != nil {
				return
			}
		}
	})
	srv := httptest.NewServer(newMux(s, cacheBytes, api, ws))
	defer srv.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: opTimeout}
	// The test's own goroutines and the idle server's: what is left once
	// every client has gone.
	base := runtime.NumGoroutine()

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	tl := &tally{done: map[string]int{}, errs: map[string]int{}}
	var wg sync.WaitGroup
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	var wsUp, rounds atomic.Int64
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wsClient(ctx, wsURL, uint64(i), gap, tl, &wsUp)
		}()
	}
	const httpClients = 4
	for i := range httpClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			httpClient(ctx, client, srv.URL, s, api, uint64(i), tl, &rounds)
		}()
	}
	warmedUp := func() bool { return wsUp.Load() == int64(conns) && rounds.Load() == httpClients }

	// Sample until dur has passed and minSamples were taken after warm-up.
	// Warm-up is given as long as a dial may take (a failed one never
	// warms up, and its error is reported below).
	var points []point
	warm := -1 // index of the first sample after warm-up
	ms := memSamples()
	start := time.Now()
	tick := time.NewTicker(max(dur/40, 100*time.Millisecond))
	for {
		<-tick.C
		if warm < 0 && warmedUp() {
			warm = len(points)
		}
		points = append(points, point{time.Since(start), readMem(ms), runtime.NumGoroutine()})
		elapsed := time.Since(start)
		if elapsed >= dur && warm >= 0 && len(points)-warm >= minSamples || warm < 0 && elapsed >= dur+opTimeout+time.Second {
			break
		}
	}
	tick.Stop()
	stopped := time.Now()
	stop()
	wg.Wait()
	t.Logf("clients wound down in %v", time.Since(stopped))

	for kind, n := range tl.errs {
		t.Errorf("%s: %d errors", kind, n)
	}
	if len(tl.sample) > 0 {
		t.Errorf("first errors:\n\t%s", strings.Join(tl.sample, "\n\t"))
	}
	t.Logf("%v, %d WebSocket connections (%d up), done: %v", time.Since(start).Round(time.Millisecond), conns, wsUp.Load(), tl.done)
	t.Log(memHeader)
	for _, p := range points {
		t.Log(memRow(p.at, p.mem, p.goroutines))
	}
	checkGoroutines(t, transport, base)
	if warm < 0 {
		t.Fatalf("warm-up never finished: %d of %d WebSocket connections up, %d of %d HTTP clients through a round", wsUp.Load(), conns, rounds.Load(), httpClients)
	}
	after := points[warm:]
	t.Logf("warm-up took %v; %d samples after it", points[warm].at.Round(time.Millisecond), len(after))
	early, late := peak(after[:len(after)/2]), peak(after[3*len(after)/4:])
	t.Logf("after warm-up (1st half) peak: live heap %.1f MiB, %d goroutines", mb(int64(early.mem.live)), early.goroutines)
	t.Logf("at the end (4th quarter) peak: live heap %.1f MiB, %d goroutines", mb(int64(late.mem.live)), late.goroutines)
	if late.mem.live > early.mem.live+early.mem.live/4+16<<20 {
		t.Errorf("heap grew after warm-up: %.1f MiB, then %.1f MiB", mb(int64(early.mem.live)), mb(int64(late.mem.live)))
	}
	checkRSS(t, after)
}

// minSamples is how many samples TestSoak takes after warm-up, at least:
// enough for each quarter that it compares to hold a few.
const minSamples = 16

// settleTimeout bounds the wait for goroutines to end after the clients
// have gone: they end within milliseconds, but on a loaded machine a
// goroutine can wait long for a CPU, and the wait ends as soon as the
// count is back.
const settleTimeout = 30 * time.Second

// checkGoroutines closes the client's idle connections, so that the server's
// goroutines for them end too, and waits for the goroutine count to fall
// back to base. The count during traffic says nothing: it follows how many
// requests are in flight, which a loaded machine changes. A goroutine still
// there once every client has gone is one that leaked.
func checkGoroutines(t *testing.T, transport *http.Transport, base int) {
	t.Helper()
	transport.CloseIdleConnections()
	n := soak.SettleGoroutines(base, settleTimeout)
	t.Logf("goroutines: %d before the clients started, %d after they left", base, n)
	if n > base {
		t.Errorf("goroutines: %d before the clients started, still %d %v after they closed their connections\n%s", base, n, settleTimeout, soak.Stacks())
	}
}

func peak(ps []point) point {
	var p point
	for _, x := range ps {
		p.mem.live, p.goroutines = max(p.mem.live, x.mem.live), max(p.goroutines, x.goroutines)
	}
	return p
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// wsClient holds one WebSocket connection for the whole run, sending a
// message of 200 B to 8 KiB every gap (jittered) and checking its echo.
// The run's ctx only says when to stop; each operation has its own
// deadline, so any error is a real one.
func wsClient(ctx context.Context, url string, seed uint64, gap time.Duration, tl *tally, up *atomic.Int64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	// Spread the dials over the first second so the accept queue keeps up.
	time.Sleep(time.Duration(rng.Int64N(int64(time.Second))))
	op, cancel := context.WithTimeout(context.Background(), opTimeout)
	c, _, err := wsdeflate.Dial(op, url, &wsdeflate.DialOptions{IdleRelease: 200 * time.Millisecond})
	cancel()
	if err != nil {
		tl.add("ws dial", err)
		return
	}
	up.Add(1)
	defer c.Close(wsdeflate.StatusNormalClosure, "")
	for i := uint64(0); ctx.Err() == nil; i++ {
		msg := text(seed<<20|i, 200+rng.IntN(8<<10))
		op, cancel := context.WithTimeout(context.Background(), opTimeout)
		err := c.Write(op, wsdeflate.MessageText, msg)
		var got []byte
		if err == nil {
			_, got, err = c.Read(op)
		}
		cancel()
		if err != nil {
			tl.add("ws message", err)
			return
		}
		if !bytes.Equal(got, msg) {
			tl.add("ws message", fmt.Errorf("echo of %d bytes came back as %d different bytes", len(msg), len(got)))
			return
		}
		tl.add("ws message", nil)
		select {
		case <-ctx.Done():
		case <-time.After(gap/2 + time.Duration(rng.Int64N(int64(gap)))):
		}
	}
}

// opTimeout bounds one request or one message's round trip.
const opTimeout = 20 * time.Second

// httpClient sends requests of every kind in turn until ctx ends, checking
// each decoded body against what the server holds, and counts itself in
// rounds once it has sent one of each.
func httpClient(ctx context.Context, client *http.Client, base string, s *site, api []byte, seed uint64, tl *tally, rounds *atomic.Int64) {
	rng := rand.New(rand.NewPCG(seed, 5))
	for i := 0; ctx.Err() == nil; i++ {
		coding := codings[i/5%len(codings)]
		var kind, path, method string
		var body []byte
		switch i % 5 {
		case 0:
			kind, path, method = "api get", "/api", "GET"
		case 1:
			kind, path, method = "api post", "/api", "POST"
			body = text(uint64(i), 4<<10)
		case 2:
			kind, path, method = "sse", "/sse", "GET"
		case 3:
			kind, path, method = "static sidecar", s.sided[rng.IntN(len(s.sided))], "GET"
		case 4:
			kind, path, method = "static fallback", s.plain[rng.IntN(len(s.plain))], "GET"
		}
		err := roundTrip(client, method, base+path, coding, body, func(got []byte) error {
			switch kind {
			case "api get":
				return same(got, api)
			case "api post":
				return same(got, body)
			case "sse":
				return checkSSE(bytes.NewReader(got))
			}
			return same(got, s.bodies[path])
		})
		tl.add(kind, err)
		if i == 4 {
			rounds.Add(1) // one request of each kind done
		}
	}
}

func same(got, want []byte) error {
	if !bytes.Equal(got, want) {
		return fmt.Errorf("decoded %d bytes differ from the %d expected", len(got), len(want))
	}
	return nil
}

// roundTrip sends one request accepting coding (and, for a POST, with its
// body gzip-encoded), decodes the response and hands it to check.
func roundTrip(client *http.Client, method, url, coding string, body []byte, check func([]byte) error) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(encode("gzip", body))
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept-Encoding", coding)
	if body != nil {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: status %d", method, url, resp.StatusCode)
	}
	got, err := decode(resp.Header.Get("Content-Encoding"), raw)
	if err != nil {
		return fmt.Errorf("%s %s in %q: %w", method, url, resp.Header.Get("Content-Encoding"), err)
	}
	if got := resp.Header.Get("Content-Encoding"); coding == "identity" && got != "" {
		return errors.New("identity requested, got " + got)
	}
	return check(got)
}
