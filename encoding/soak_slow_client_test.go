package encoding

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// smallBuffers shrinks the send buffer of every accepted connection, so a
// client that reads slowly blocks the server after kilobytes, not after the
// megabytes loopback buffers hold.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(8 << 10)
	}
	return c, err
}

// TestSlowClientHitsWriteTimeout: a client that reads a compressed stream
// one byte a second holds the handler only until the server's WriteTimeout;
// then the handler's Write fails, the handler returns, the encoder goes back
// to the pool, and the heap stays bounded meanwhile.
func TestSlowClientHitsWriteTimeout(t *testing.T) {
	const writeTimeout = time.Second
	codec := new(countingCodec)
	m := mustNew(t, Config{Codings: []Coding{{Codec: codec}}})
	type result struct {
		elapsed time.Duration
		written int
		err     error
	}
	done := make(chan result, 1)
	srv := httptest.NewUnstartedServer(m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		start := time.Now()
		chunk := sampleText(64 << 10)
		var res result
		for res.written < 256<<20 {
			if _, res.err = w.Write(chunk); res.err != nil {
				break
			}
			res.written += len(chunk)
		}
		res.elapsed = time.Since(start)
		done <- res
	})))
	srv.Listener = smallBuffers{srv.Listener}
	srv.Config.WriteTimeout = writeTimeout
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()

	nc, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.(*net.TCPConn).SetReadBuffer(4 << 10)
	s := soak.StartSampler(5 * time.Millisecond)
	fmt.Fprintf(nc, "GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
	var res result
	one := make([]byte, 1)
	read := 0
	if _, err := nc.Read(one); err == nil { // the first byte at once, then one a second
		read++
	}
	for res.elapsed == 0 {
		select {
		case res = <-done:
		case <-time.After(time.Second):
			if _, err := nc.Read(one); err == nil {
				read++
			}
			if read > 5 {
				t.Fatalf("the handler still writes after %d seconds of a client reading a byte a second; WriteTimeout is %v", read, writeTimeout)
			}
		}
	}
	peak := s.Stop()
	if res.err == nil {
		t.Fatalf("the handler wrote %d bytes to a client reading a byte a second without an error", res.written)
	}
	if res.elapsed > writeTimeout+time.Second {
		t.Errorf("the handler's Write failed after %v, WriteTimeout is %v", res.elapsed, writeTimeout)
	}
	if peak.HeapInuse > 8<<20 {
		t.Errorf("the heap grew by %d bytes while the client read slowly", peak.HeapInuse)
	}
	deadline := time.Now().Add(2 * time.Second)
	for codec.made.Load() != codec.released.Load() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if made, released := codec.made.Load(), codec.released.Load(); made != released {
		t.Errorf("encoders: %d taken, %d returned", made, released)
	}
	t.Logf("client read %d bytes at one a second; handler wrote %d KiB, then Write failed after %v (WriteTimeout %v): %v; heap peak +%.2f MiB",
		read, res.written>>10, res.elapsed.Round(time.Millisecond), writeTimeout, res.err, float64(peak.HeapInuse)/(1<<20))
}
