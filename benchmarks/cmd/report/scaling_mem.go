package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/squeezehttp/squeeze/benchmarks/chart"
	"github.com/squeezehttp/squeeze/benchmarks/load"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

func getMem(ctx context.Context, base string) (memReply, error) {
	var m memReply
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/mem", nil)
	if err != nil {
		return m, fmt.Errorf("report: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return m, fmt.Errorf("report: /mem: %w", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return m, fmt.Errorf("report: /mem: %w", err)
	}
	return m, nil
}

// scalingInFlight opens N connections that each hold one streaming
// compressed response in the loadserver, and reads the server's heap.
func (r *Report) scalingInFlight(ctx context.Context) error {
	r.section("Scaling: heap against compressed responses in flight",
		"`cmd/loadserver`'s `/stream` sends 160 KB of JSON through the middleware at level 4 (more than its 128 KiB buffer, so the "+
			"response holds a pooled streaming encoder), flushes, and waits. N raw TCP clients each hold one; the server's HeapInuse after "+
			"two GCs, minus its value with none in flight, divided by N, is the heap per response. Slope: least-squares over all N.")
	srv, err := r.startOurs(nil)
	if err != nil {
		return err
	}
	defer srv.Stop()
	base, err := getMem(ctx, srv.url)
	if err != nil {
		return err
	}
	head := []string{"codec"}
	for _, n := range r.Mode.InFlight {
		head = append(head, fmt.Sprintf("N=%d", n))
	}
	head = append(head, "slope")
	var rows [][]string
	var series []chart.Series
	for _, codec := range scaleCodecs {
		name := codec.Name()
		row := []string{name}
		ser := chart.Series{Name: name}
		var xs, ys []float64
		for _, n := range r.Mode.InFlight {
			m, err := r.holdInFlight(ctx, srv.url, name, n)
			if err != nil {
				return err
			}
			heap := float64(m.HeapInuse) - float64(base.HeapInuse)
			row = append(row, fmt.Sprintf("%s (%s each)", size(heap), size(heap/float64(n))))
			ser.Points = append(ser.Points, chart.Point{X: float64(n), Y: max(heap, 1) / (1 << 20)})
			xs, ys = append(xs, float64(n)), append(ys, heap)
			r.logf("   in flight %s N=%d: %s", name, n, size(heap))
		}
		_, k := fit(xs, ys)
		rows = append(rows, append(row, size(k)+" per response"))
		series = append(series, ser)
	}
	writeTable(r.md, head, rows)
	r.charts["scaling-inflight.svg"] = chart.Line{Title: "Server heap against compressed responses in flight",
		XLabel: "responses in flight (log)", YLabel: "heap MiB (log)", LogX: true, LogY: true, Series: series}
	r.md.WriteString("![heap in flight]({charts}/scaling-inflight.svg)\n\n")
	return nil
}

// holdInFlight starts n /stream responses in the given coding, reads the
// server's memory once all are in flight, and releases them.
func (r *Report) holdInFlight(ctx context.Context, base, coding string, n int) (memReply, error) {
	addr := strings.TrimPrefix(base, "http://")
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	req := "GET /stream HTTP/1.1\r\nHost: " + addr + "\r\nAccept-Encoding: " + coding + "\r\n\r\n"
	for range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			return memReply{}, fmt.Errorf("report: in-flight client: %w", err)
		}
		conns = append(conns, c)
		if _, err := io.WriteString(c, req); err != nil {
			return memReply{}, fmt.Errorf("report: in-flight client: %w", err)
		}
		go io.Copy(io.Discard, c)
	}
	m, err := waitMem(ctx, base, func(m memReply) bool { return m.InFlight == int64(n) })
	if err != nil {
		return m, err
	}
	if _, err := http.Get(base + "/release"); err != nil {
		return m, fmt.Errorf("report: /release: %w", err)
	}
	if _, err := waitMem(ctx, base, func(m memReply) bool { return m.InFlight == 0 }); err != nil {
		return m, err
	}
	return m, nil
}

// scalingWSIdle opens wsdeflate connections to the loadserver, one message
// each way with context takeover, and reads the server's heap once they
// have been idle past wsdeflate.DefaultIdleRelease.
func (r *Report) scalingWSIdle(ctx context.Context) error {
	r.section("Scaling: heap against idle WebSocket connections",
		"wsdeflate.Dial clients in this process connect to `cmd/loadserver`'s `/ws` (wsdeflate.Accept, permessage-deflate with context takeover), "+
			"exchange one 1 KB JSON message each way, and go idle. After 1.5 s (past wsdeflate.DefaultIdleRelease) the server's HeapInuse and "+
			"StackInuse after two GCs, minus their values with no connection, are divided by N. Slope: least-squares over all N.")
	points := r.Mode.WSConns
	need := points[len(points)-1] + 256
	if got := raiseFileLimit(need); got < need {
		var capped []int
		for _, n := range points {
			if n+256 <= got {
				capped = append(capped, n)
			}
		}
		fmt.Fprintf(r.md, "The open-file limit (%d, hard) does not allow %d connections here; measured up to %d.\n\n", got, points[len(points)-1], capped[len(capped)-1])
		points = capped
	}
	srv, err := r.startOurs(nil)
	if err != nil {
		return err
	}
	defer srv.Stop()
	base, err := getMem(ctx, srv.url)
	if err != nil {
		return err
	}
	msg := load.JSON(1 << 10)
	url := "ws" + strings.TrimPrefix(srv.url, "http") + "/ws"
	var conns []*wsdeflate.Conn
	defer func() {
		for _, c := range conns {
			c.NetConn().Close()
		}
	}()
	var rows [][]string
	var xs, heaps, stacks []float64
	ser := chart.Series{Name: "heap + stack"}
	for _, n := range points {
		for len(conns) < n {
			c, _, err := wsdeflate.Dial(ctx, url, nil)
			if err != nil {
				return fmt.Errorf("report: dial %d: %w", len(conns)+1, err)
			}
			conns = append(conns, c)
			if err := c.Write(ctx, wsdeflate.MessageText, msg); err != nil {
				return fmt.Errorf("report: ws write: %w", err)
			}
			if _, _, err := c.Read(ctx); err != nil {
				return fmt.Errorf("report: ws read: %w", err)
			}
		}
		time.Sleep(wsdeflate.DefaultIdleRelease + 500*time.Millisecond)
		m, err := waitMem(ctx, srv.url, func(m memReply) bool { return m.WSConns == int64(n) })
		if err != nil {
			return err
		}
		heap := float64(m.HeapInuse) - float64(base.HeapInuse)
		stack := float64(m.StackInuse) - float64(base.StackInuse)
		rows = append(rows, []string{fmt.Sprint(n), size(heap), size(stack), size((heap + stack) / float64(n))})
		xs, heaps, stacks = append(xs, float64(n)), append(heaps, heap), append(stacks, stack)
		ser.Points = append(ser.Points, chart.Point{X: float64(n), Y: max(heap+stack, 1) / (1 << 20)})
		r.logf("   ws idle N=%d: heap %s stack %s", n, size(heap), size(stack))
	}
	writeTable(r.md, []string{"connections", "heap", "stack", "per connection"}, rows)
	_, kh := fit(xs, heaps)
	_, ks := fit(xs, stacks)
	fmt.Fprintf(r.md, "Slope: %s of heap and %s of stack per idle connection (server side only).\n\n", size(kh), size(ks))
	r.charts["scaling-ws-idle.svg"] = chart.Line{Title: "Server memory against idle WebSocket connections",
		XLabel: "idle connections (log)", YLabel: "heap + stack MiB (log)", LogX: true, LogY: true, Series: []chart.Series{ser}}
	r.md.WriteString("![idle websocket memory]({charts}/scaling-ws-idle.svg)\n\n")
	r.addSummary("Server memory per idle permessage-deflate connection (context takeover)",
		fmt.Sprintf("%s heap + %s stack (slope over %d..%d)", size(kh), size(ks), points[0], points[len(points)-1]), "go run ./cmd/report -only scaling")
	return nil
}

// raiseFileLimit raises this process's open-file limit towards need (up
// to the hard limit) and returns the limit in effect.
func raiseFileLimit(need int) int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	if l.Cur < uint64(need) {
		l.Cur = min(uint64(need), l.Max)
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
		syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l)
	}
	return int(l.Cur)
}
