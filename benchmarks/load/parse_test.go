package load

import (
	"testing"
	"time"
)

const wrkOutput = `Running 2s test @ http://127.0.0.1:8080/json
  2 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   610.21us  300.02us   9.80ms   90.10%
    Req/Sec    13.20k     1.01k   15.00k    70.00%
  Latency Distribution
     50%  550.00us
     75%  700.00us
     90%  900.00us
     99%    1.80ms
  52800 requests in 2.00s, 80.10MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  26400.50
Transfer/sec:     40.05MB
`

func TestParseWrkReadsRateLatencyPercentilesAndErrors(t *testing.T) {
	r, err := parseWrk(wrkOutput)
	if err != nil {
		t.Fatal(err)
	}
	want := WrkResult{Requests: 52800, RPS: 26400.50, P50: 550 * time.Microsecond, P99: 1800 * time.Microsecond, Errors: 7}
	if r != want {
		t.Errorf("parseWrk = %+v, want %+v", r, want)
	}
}

func TestParseWrkFailsWithoutRequestsPerSecond(t *testing.T) {
	if _, err := parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n"); err == nil {
		t.Error("parseWrk accepted output without a Requests/sec line")
	}
}

const abOutput = `Server Software:        nginx/1.22.1
Document Length:        31628 bytes
Concurrency Level:      1
Time taken for tests:   4.000 seconds
Complete requests:      1000
Failed requests:        3
Keep-Alive requests:    0
Total transferred:      31800000 bytes
HTML transferred:       31628000 bytes
Requests per second:    250.12 [#/sec] (mean)
`

func TestParseAbReadsRateKeepAliveAndBytes(t *testing.T) {
	r, err := parseAb(abOutput)
	if err != nil {
		t.Fatal(err)
	}
	want := AbResult{Complete: 1000, Failed: 3, KeepAlive: 0, RPS: 250.12, HTML: 31628000}
	if r != want {
		t.Errorf("parseAb = %+v, want %+v", r, want)
	}
}

func TestQuoteArgsQuotesHeadersForTheShell(t *testing.T) {
	got := quoteArgs([]string{"-H", "Accept-Encoding: br", "http://127.0.0.1:1/x"})
	want := `-H 'Accept-Encoding: br' http://127.0.0.1:1/x`
	if got != want {
		t.Errorf("quoteArgs = %s, want %s", got, want)
	}
}
