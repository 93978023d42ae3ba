package encoding

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/soak"
)

// TestRequestDecodersReturnOnEveryPath sends encoded request bodies through
// a real server and faults them: the client stops halfway through the body,
// the handler panics while reading, the handler never reads, the body is
// corrupt. After each, the decoder taken for the body has been released
// (decodedBody.release is what puts it back in its pool), the next request
// is decoded and goroutines settle.
func TestRequestDecodersReturnOnEveryPath(t *testing.T) {
	body := sampleText(256 << 10)
	cases := []struct {
		name    string
		handler http.HandlerFunc
		send    func(t *testing.T, addr, coding string, payload []byte)
	}{
		{"client stops mid-body", drain, sendHalf},
		{"handler panics while reading", func(w http.ResponseWriter, r *http.Request) {
			r.Body.Read(make([]byte, 1000))
			panic("mid-body")
		}, postWhole},
		{"handler never reads", func(w http.ResponseWriter, r *http.Request) {}, postWhole},
		{"corrupt body", drain, func(t *testing.T, addr, coding string, payload []byte) {
			bad := bytes.Clone(payload)
			for i := len(bad) / 3; i < len(bad)/2; i++ {
				bad[i] ^= 0x5a
			}
			postWhole(t, addr, coding, bad)
		}},
	}
	for _, coding := range []string{"zstd", "br", "gzip", "deflate"} {
		payload := encodeRequest(t, coding, body)
		for _, tc := range cases {
			t.Run(coding+"/"+tc.name, func(t *testing.T) {
				m := mustNew(t, Config{DecodeRequests: true})
				var opened, released, served atomic.Int64
				srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					var body *decodedBody
					defer func() {
						if body != nil && body.dec != nil {
							opened.Add(1)
							if body.release == nil {
								released.Add(1)
							}
						}
						served.Add(1)
					}()
					m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						body, _ = r.Body.(*decodedBody)
						if r.URL.Path == "/echo" {
							echo(w, r)
							return
						}
						tc.handler(w, r)
					})).ServeHTTP(w, r)
				}))
				srv.Config.ErrorLog = log.New(io.Discard, "", 0)
				srv.Start()
				defer srv.Close()
				base := runtime.NumGoroutine()
				addr := srv.Listener.Addr().String()
				tc.send(t, addr, coding, payload)
				waitFor(t, &served, 1)
				req, _ := http.NewRequest("POST", srv.URL+"/echo", bytes.NewReader(payload))
				req.Header.Set("Content-Encoding", coding)
				resp, err := http.DefaultTransport.RoundTrip(req)
				if err != nil {
					t.Fatalf("request after the fault: %v", err)
				}
				got, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !bytes.Equal(got, body) {
					t.Fatalf("request after the fault: status %d, %d of %d bytes echoed", resp.StatusCode, len(got), len(body))
				}
				waitFor(t, &served, 2)
				if o, r := opened.Load(), released.Load(); o == 0 || o != r {
					t.Errorf("decoders: %d opened, %d released", o, r)
				}
				srv.CloseClientConnections()
				http.DefaultTransport.(*http.Transport).CloseIdleConnections()
				if n := soak.SettleGoroutines(base, 5*time.Second); n > base {
					t.Errorf("goroutines: %d before, %d five seconds after the fault\n%s", base, n, soak.Stacks())
				}
			})
		}
	}
}

func drain(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }

// postWhole posts payload encoded in coding and reads the answer.
func postWhole(t *testing.T, addr, coding string, payload []byte) {
	sendRaw(t, addr, coding, payload, len(payload))
}

// sendHalf announces payload's length, sends half of it and hangs up.
func sendHalf(t *testing.T, addr, coding string, payload []byte) {
	sendRaw(t, addr, coding, payload, len(payload)/2)
}

func sendRaw(t *testing.T, addr, coding string, payload []byte, n int) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(nc, "POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Encoding: %s\r\nContent-Length: %d\r\n\r\n", coding, len(payload))
	nc.Write(payload[:n])
	if n == len(payload) {
		io.Copy(io.Discard, nc) // until the server answers and closes
	}
}

func waitFor(t *testing.T, n *atomic.Int64, want int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for n.Load() < want {
		if time.Now().After(deadline) {
			t.Fatalf("after 5s, %d of %d requests served: a handler is stuck", n.Load(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
