package load

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
)

// AbResult is what one ab run measured.
type AbResult struct {
	Complete  int64
	Failed    int64
	KeepAlive int64   // requests that reused a connection
	RPS       float64 // "Requests per second"
	HTML      int64   // body bytes received, all requests together
}

// Ab runs ApacheBench: n requests, one at a time, over a kept-alive
// connection (-k -c 1) as in the published comparisons, with the given
// headers.
func Ab(ctx context.Context, url string, n int, header []string) (AbResult, string, error) {
	args := []string{"-n", strconv.Itoa(n), "-k", "-c", "1"}
	for _, h := range header {
		args = append(args, "-H", h)
	}
	args = append(args, url)
	cmdline := "ab " + quoteArgs(args)
	out, err := exec.CommandContext(ctx, "ab", append([]string{"-q"}, args...)...).CombinedOutput()
	if err != nil {
		return AbResult{}, cmdline, fmt.Errorf("load: %s: %v\n%s", cmdline, err, out)
	}
	r, err := parseAb(string(out))
	if err != nil {
		return r, cmdline, fmt.Errorf("load: %s: %w\n%s", cmdline, err, out)
	}
	return r, cmdline, nil
}

var (
	abRPS       = regexp.MustCompile(`Requests per second:\s+([0-9.]+)`)
	abComplete  = regexp.MustCompile(`Complete requests:\s+(\d+)`)
	abFailed    = regexp.MustCompile(`Failed requests:\s+(\d+)`)
	abKeepAlive = regexp.MustCompile(`Keep-Alive requests:\s+(\d+)`)
	abHTML      = regexp.MustCompile(`HTML transferred:\s+(\d+) bytes`)
)

func parseAb(out string) (AbResult, error) {
	var r AbResult
	m := abRPS.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no Requests per second line")
	}
	r.RPS, _ = strconv.ParseFloat(m[1], 64)
	num := func(re *regexp.Regexp) int64 {
		if m := re.FindStringSubmatch(out); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			return n
		}
		return 0
	}
	r.Complete, r.Failed, r.KeepAlive, r.HTML = num(abComplete), num(abFailed), num(abKeepAlive), num(abHTML)
	return r, nil
}
