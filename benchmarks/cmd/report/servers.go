package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/squeezehttp/squeeze/benchmarks/load"
	"github.com/squeezehttp/squeeze/encoding"
)

// assets are the files the load tests serve.
type assets struct {
	name     string // the asset's file name, jquery.min.js
	asset    string // its path
	static   string // a directory with the asset and its .br, .gz and .zst sidecars
	fallback string // a directory with the asset alone
	json     string // a 4 KB JSON reply, "" for the server's generated one
}

// sidecarLevels are the levels sidecars are made at: the highest, as a
// build step can afford.
var sidecarLevels = []struct {
	ext   string
	codec encoding.Codec
	level int
}{{".br", encoding.Brotli(), 11}, {".gz", encoding.Gzip(), 9}, {".zst", encoding.Zstd(), 19}}

// prepareAssets lays out the served files in the scratch directory, once.
func (r *Report) prepareAssets() (*assets, error) {
	a := &assets{static: filepath.Join(r.tmp, "static"), fallback: filepath.Join(r.tmp, "fallback")}
	// jQuery 3.7.1's jquery.min.js whole, beside the corpus (which keeps
	// only its first 24 KiB).
	data, err := readFile(filepath.Join(r.corpus, "..", "assets", "jquery.min.js"))
	if err != nil {
		return nil, err
	}
	a.name = "jquery.min.js"
	for _, d := range []string{a.static, a.fallback} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		if err := os.WriteFile(filepath.Join(d, a.name), data, 0o644); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	a.asset = filepath.Join(a.static, a.name)
	for _, s := range sidecarLevels {
		out, err := s.codec.(encoding.AppendEncoder).AppendEncode(nil, data, s.level)
		if err != nil {
			return nil, fmt.Errorf("report: make %s sidecar: %w", s.ext, err)
		}
		if err := os.WriteFile(a.asset+s.ext, out, 0o644); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	return a, nil
}

// ours is a running cmd/loadserver.
type ours struct {
	*load.Process
	url string
}

// startOurs starts a fresh loadserver, so that its peak RSS belongs to
// what is measured next.
func (r *Report) startOurs(a *assets) (*ours, error) {
	port, err := load.FreePort()
	if err != nil {
		return nil, err
	}
	args := []string{"-addr", "127.0.0.1:" + strconv.Itoa(port), "-level", "4"}
	if a != nil {
		args = append(args, "-static", a.static, "-fallback", a.fallback, "-asset", a.asset)
		if a.json != "" {
			args = append(args, "-json", a.json)
		}
	}
	p, err := load.Start(exec.Command(r.server, args...), port)
	if err != nil {
		return nil, err
	}
	return &ours{p, "http://127.0.0.1:" + strconv.Itoa(port)}, nil
}

// nginxConf serves the asset compressed on the fly at level 4 under /dyn/
// (gzip and, when the modules are there, brotli) and with gzip_static and
// brotli_static under /static/.
func nginxConf(a *assets, brotli bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "        location /dyn/ {\n            alias %s/;\n", a.fallback)
	// gzip_http_version 1.0: ab speaks HTTP/1.0, and nginx's default (1.1)
	// would send it identity.
	b.WriteString("            gzip on; gzip_comp_level 4; gzip_types *; gzip_min_length 0; gzip_http_version 1.0;\n")
	if brotli {
		b.WriteString("            brotli on; brotli_comp_level 4; brotli_types *; brotli_min_length 0;\n")
	}
	fmt.Fprintf(&b, "        }\n        location /static/ {\n            alias %s/;\n            gzip_static on;\n", a.static)
	if brotli {
		b.WriteString("            brotli_static on;\n")
	}
	b.WriteString("        }\n")
	return b.String()
}

// assetsAndNginx lays out the assets and starts nginx over them; without
// nginx it notes in the section and the log why its rows are missing, and
// ng is nil. stop ends nginx, if started.
func (r *Report) assetsAndNginx() (a *assets, ng *load.Nginx, stop func(), err error) {
	if a, err = r.prepareAssets(); err != nil {
		return nil, nil, nil, err
	}
	ng, why := r.startNginx(a)
	if ng == nil {
		r.logf("   nginx rows skipped: %s", why)
		fmt.Fprintf(r.md, "nginx rows skipped: %s.\n\n", why)
		return a, nil, func() {}, nil
	}
	return a, ng, ng.Stop, nil
}

// startNginx starts nginx with nginxConf, or returns why it cannot.
func (r *Report) startNginx(a *assets) (*load.Nginx, string) {
	if _, err := exec.LookPath("nginx"); err != nil {
		return nil, "nginx is not installed (Debian: nginx libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static)"
	}
	brotli, _ := load.NginxModules()
	dir, err := os.MkdirTemp(r.tmp, "nginx-")
	if err != nil {
		return nil, err.Error()
	}
	n, err := load.StartNginx(dir, nginxConf(a, brotli != nil))
	if err != nil {
		return nil, err.Error()
	}
	return n, ""
}

func lookPath(name string) (string, error) { return exec.LookPath(name) }

func readFile(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return b, nil
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}
