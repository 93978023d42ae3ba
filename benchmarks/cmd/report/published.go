package main

import (
	"context"
	"fmt"

	"github.com/squeezehttp/squeeze/benchmarks/load"
)

// published reproduces the Angie/nginx write-up's dynamic compression run:
// ab -n 1000 -k -c 1 with one coding accepted, against a JavaScript asset
// compressed on the fly at level 4, nginx and our middleware side by side.
// They reported zstd 247 rps, brotli 211 rps and gzip far slower.
func (r *Report) published(ctx context.Context) error {
	r.section("Published test: dynamic compression at level 4 with ab",
		"The run of the Angie/nginx write-up (their result: zstd 247 rps, brotli 211 rps, gzip far slower): "+
			"`ab -n 1000 -k -c 1` with one coding accepted, against jQuery 3.7.1's jquery.min.js, whole (testdata/assets) compressed on the fly at level 4 "+
			"on every request. nginx is Debian's, with its gzip and the brotli filter module, one worker; "+
			"ours is `cmd/loadserver`'s `/asset`, the encoding middleware at level 4 for zstd, br and gzip.")
	a, err := r.prepareAssets()
	if err != nil {
		return err
	}
	if _, err := lookPath("ab"); err != nil {
		r.skip("ab is not installed (Debian: apache2-utils)")
		return nil
	}
	ng, why := r.startNginx(a)
	if ng == nil {
		r.skip(why)
		return nil
	}
	defer ng.Stop()
	srv, err := r.startOurs(a)
	if err != nil {
		return err
	}
	defer srv.Stop()

	var rows [][]string
	var cmds []string
	nginxRPS := map[string]float64{}
	nginxServed := map[string]string{}
	for _, coding := range []string{"zstd", "br", "gzip"} {
		for _, t := range []struct{ name, url string }{
			{"nginx", ng.URL + "/dyn/" + a.name},
			{"squeeze", srv.url + "/asset"},
		} {
			probe, err := load.Probe(t.url, coding)
			if err != nil {
				return err
			}
			res, cmd, err := load.Ab(ctx, t.url, r.Mode.PublishedN, []string{"Accept-Encoding: " + coding})
			if err != nil {
				return err
			}
			r.logf("   %s %s: %.0f rps", t.name, coding, res.RPS)
			cmds = append(cmds, cmd)
			served := probe.ContentEncoding
			if served == "" {
				served = "identity"
			}
			vs := "–"
			if t.name == "nginx" {
				nginxRPS[coding], nginxServed[coding] = res.RPS, served
			} else if n := nginxRPS[coding]; n > 0 && nginxServed[coding] == coding {
				vs = ratio(res.RPS / n)
			} else {
				vs = "– (nginx sent " + nginxServed[coding] + ")"
			}
			rows = append(rows, []string{coding, t.name, served, fmt.Sprint(probe.BodyBytes),
				fmt.Sprintf("%d/%d", res.KeepAlive, res.Complete), fmt.Sprint(res.Failed), num(res.RPS), vs})
			if t.name == "squeeze" && nginxServed[coding] == coding {
				n := nginxRPS[coding]
				r.addSummary(fmt.Sprintf("ab -k -c 1, %s (%s), %s level 4 on the fly", a.name, size(float64(fileSize(a.asset))), coding),
					fmt.Sprintf("%.0f rps vs nginx %.0f (%s)", res.RPS, n, ratio(res.RPS/n)), cmd)
				if coding == "br" {
					r.addHeadline("published", headlineFigure{
						what: fmt.Sprintf("%s (%s) compressed on every request, br 4, `ab -k -c 1`", a.name, size(float64(fileSize(a.asset)))),
						ours: fmt.Sprintf("%.0f rps", res.RPS), peer: fmt.Sprintf("nginx br 4: %.0f rps", n),
						ratio: ratio(res.RPS / n), command: cmd,
					})
				}
			}
		}
	}
	writeTable(r.md, []string{"Accept-Encoding", "server", "coding served", "bytes/response", "keep-alive/complete", "failed", "rps", "squeeze/nginx"}, rows)
	if !ng.Zstd {
		r.md.WriteString("Debian's nginx has no zstd module, so its zstd row is what it sends a client that accepts only zstd. ")
	}
	r.md.WriteString("nginx streams an on-the-fly compressed body without a Content-Length, so an HTTP/1.0 client such as ab cannot keep the connection alive " +
		"(the keep-alive column); the middleware sends whole compressed bodies with a Content-Length.\n\n")
	command(r.md, cmds...)
	return nil
}
