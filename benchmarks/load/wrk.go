package load

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// WrkResult is what one wrk run measured.
type WrkResult struct {
	Requests int64
	RPS      float64
	P50, P99 time.Duration
	Errors   int64 // socket errors plus non-2xx/3xx responses
}

// Wrk runs wrk against url with conns connections for d, sending the given
// headers, and parses its --latency output. It uses up to two threads:
// the machines this runs on are small, and wrk needs CPU of its own.
func Wrk(ctx context.Context, url string, conns int, d time.Duration, header []string) (WrkResult, string, error) {
	threads := min(conns, 2)
	args := []string{"-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", fmt.Sprintf("%ds", max(1, int(d.Round(time.Second)/time.Second))), "--latency"}
	for _, h := range header {
		args = append(args, "-H", h)
	}
	args = append(args, url)
	cmdline := "wrk " + quoteArgs(args)
	out, err := exec.CommandContext(ctx, "wrk", args...).CombinedOutput()
	if err != nil {
		return WrkResult{}, cmdline, fmt.Errorf("load: %s: %v\n%s", cmdline, err, out)
	}
	r, err := parseWrk(string(out))
	if err != nil {
		return r, cmdline, fmt.Errorf("load: %s: %w\n%s", cmdline, err, out)
	}
	return r, cmdline, nil
}

var (
	wrkRPS      = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkRequests = regexp.MustCompile(`(\d+) requests in`)
	wrkPct      = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
)

func parseWrk(out string) (WrkResult, error) {
	var r WrkResult
	m := wrkRPS.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no Requests/sec line")
	}
	r.RPS, _ = strconv.ParseFloat(m[1], 64)
	if m := wrkRequests.FindStringSubmatch(out); m != nil {
		r.Requests, _ = strconv.ParseInt(m[1], 10, 64)
	}
	for _, m := range wrkPct.FindAllStringSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[3]]
		d := time.Duration(v * float64(unit))
		if m[1] == "50" {
			r.P50 = d
		} else {
			r.P99 = d
		}
	}
	if m := wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.ParseInt(s, 10, 64)
			r.Errors += n
		}
	}
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		r.Errors += n
	}
	return r, nil
}

// quoteArgs joins args for a shell, quoting those that need it.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'|;&*$<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
