package load

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Nginx is an nginx started by StartNginx.
type Nginx struct {
	// Process is the running nginx; Stop stops it.
	*Process
	// URL is http://127.0.0.1:port without a trailing slash.
	URL string
	// Brotli reports whether Debian's brotli modules were loaded.
	Brotli bool
	// Zstd reports whether a zstd filter module was found and loaded.
	Zstd bool
}

// NginxModules reports which of the optional compression modules the
// installed nginx can load.
func NginxModules() (brotli, zstd []string) {
	build, err := exec.Command("nginx", "-V").CombinedOutput()
	if err != nil {
		return nil, nil
	}
	find := func(names ...string) []string {
		var dirs []string
		if m := regexp.MustCompile(`--modules-path=(\S+)`).FindSubmatch(build); m != nil {
			dirs = append(dirs, string(m[1]))
		}
		if m := regexp.MustCompile(`--prefix=(\S+)`).FindSubmatch(build); m != nil {
			dirs = append(dirs, filepath.Join(string(m[1]), "modules"))
		}
		for _, dir := range dirs {
			var found []string
			for _, n := range names {
				if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.Mode().IsRegular() {
					found = append(found, filepath.Join(dir, n))
				}
			}
			if len(found) == len(names) {
				return found
			}
		}
		return nil
	}
	return find("ngx_http_brotli_filter_module.so", "ngx_http_brotli_static_module.so"),
		find("ngx_http_zstd_filter_module.so")
}

// StartNginx runs nginx in the foreground, one worker and no master
// process, listening on 127.0.0.1 at a free port, with serverConf as the
// body of its only server block. Its configuration, pid file, temp files
// and logs stay in dir.
func StartNginx(dir, serverConf string) (*Nginx, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	brotli, zstd := NginxModules()
	if brotli == nil && strings.Contains(serverConf, "brotli") {
		return nil, fmt.Errorf("load: nginx has no brotli modules (Debian: libnginx-mod-http-brotli-filter, -static)")
	}
	if zstd == nil && strings.Contains(serverConf, "zstd") {
		return nil, fmt.Errorf("load: nginx has no zstd module")
	}
	var conf strings.Builder
	for _, m := range append(brotli, zstd...) {
		fmt.Fprintf(&conf, "load_module %s;\n", m)
	}
	mime := ""
	if _, err := os.Stat("/etc/nginx/mime.types"); err == nil {
		mime = "include /etc/nginx/mime.types;"
	}
	fmt.Fprintf(&conf, `daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log stderr warn;
events { worker_connections 4096; }
http {
    %[3]s
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path %[1]s/client_body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    server {
        listen 127.0.0.1:%[2]d;
%[4]s
    }
}
`, dir, port, mime, serverConf)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf.String()), 0o644); err != nil {
		return nil, fmt.Errorf("load: write nginx.conf: %w", err)
	}
	if out, err := exec.Command("nginx", "-t", "-q", "-p", dir, "-e", "stderr", "-c", path).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("load: nginx rejects its config: %v\n%s", err, out)
	}
	p, err := Start(exec.Command("nginx", "-p", dir, "-e", "stderr", "-c", path), port)
	if err != nil {
		return nil, err
	}
	return &Nginx{Process: p, URL: fmt.Sprintf("http://127.0.0.1:%d", port), Brotli: brotli != nil, Zstd: zstd != nil}, nil
}
