package interop

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// NginxServer is an nginx started by Nginx for one test.
type NginxServer struct {
	// URL is the base URL, http://127.0.0.1:port, without a trailing slash.
	URL string
	// Port is the port nginx listens on.
	Port int
	// Brotli reports whether Debian's brotli filter and static modules were
	// loaded, so brotli and brotli_static directives work.
	Brotli bool
	// Process is the running nginx.
	Process *Process
}

// brotliModules are the dynamic modules of Debian's
// libnginx-mod-http-brotli-{filter,static} packages.
var brotliModules = []string{"ngx_http_brotli_filter_module.so", "ngx_http_brotli_static_module.so"}

// Nginx starts nginx for the test with serverConf as the body of its only
// server block, which listens on 127.0.0.1 at a free port; for example
// "root " + dir + "; gzip on; gzip_types *;". Everything nginx writes (pid
// file, temp files, error log) stays in t.TempDir(); the system's
// configuration is only read, for mime.types. It runs in the foreground
// without a master process, so it works as root and stops with the test.
// When serverConf mentions brotli and the modules are missing, the test skips
// (or fails under SQUEEZE_INTEROP=require).
func Nginx(t testing.TB, serverConf string) *NginxServer {
	t.Helper()
	Peers(t)
	bin := LookPath(t, "nginx", "nginx")
	if bin == nil {
		return nil
	}
	build, err := exec.Command(bin.Path, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("interop: nginx -V: %v\n%s", err, build)
	}
	mods := nginxBrotliModules(string(build))
	if mods == nil && strings.Contains(serverConf, "brotli") {
		Missing(t, "nginx brotli modules", "none of "+strings.Join(brotliModules, ", ")+" found",
			installHint("libnginx-mod-http-brotli-filter libnginx-mod-http-brotli-static"))
		return nil
	}

	dir := t.TempDir()
	port := FreePort(t)
	conf := nginxConf(dir, port, mods, nginxMimeTypes(string(build)), serverConf)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatalf("interop: write nginx config: %v", err)
	}
	// -e sets the error log before the configuration is read, so nginx
	// never opens the system's default one.
	if out, err := exec.Command(bin.Path, "-t", "-q", "-p", dir, "-e", "stderr", "-c", confPath).CombinedOutput(); err != nil {
		t.Fatalf("interop: nginx rejects the config: %v\n%s\n%s", err, out, numbered(conf))
	}
	p := Start(t, exec.Command(bin.Path, "-p", dir, "-e", "stderr", "-c", confPath), OnPort(port))
	return &NginxServer{URL: "http://127.0.0.1:" + strconv.Itoa(port), Port: port, Brotli: mods != nil, Process: p}
}

// nginxConf is the whole configuration around serverConf.
func nginxConf(dir string, port int, modules []string, mimeTypes, serverConf string) string {
	var b strings.Builder
	for _, m := range modules {
		fmt.Fprintf(&b, "load_module %s;\n", m)
	}
	fmt.Fprintf(&b, `daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
`, dir)
	if mimeTypes != "" {
		fmt.Fprintf(&b, "    include %s;\n", mimeTypes)
	}
	fmt.Fprintf(&b, `    default_type application/octet-stream;
    access_log off;
    client_body_temp_path %[1]s/client_body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    server {
        listen 127.0.0.1:%[2]d;
%[3]s
    }
}
`, dir, port, serverConf)
	return b.String()
}

var (
	modulesPathFlag = regexp.MustCompile(`--modules-path=(\S+)`)
	confPathFlag    = regexp.MustCompile(`--conf-path=(\S+)`)
	prefixFlag      = regexp.MustCompile(`--prefix=(\S+)`)
)

// nginxBrotliModules returns the absolute paths of both brotli modules, from
// the directory that `nginx -V` reports (--modules-path, else
// <prefix>/modules), or nil unless both are there.
func nginxBrotliModules(build string) []string {
	var dirs []string
	if m := modulesPathFlag.FindStringSubmatch(build); m != nil {
		dirs = append(dirs, m[1])
	}
	if m := prefixFlag.FindStringSubmatch(build); m != nil {
		dirs = append(dirs, filepath.Join(m[1], "modules"))
	}
	for _, dir := range dirs {
		var found []string
		for _, name := range brotliModules {
			if p := filepath.Join(dir, name); isFile(p) {
				found = append(found, p)
			}
		}
		if len(found) == len(brotliModules) {
			return found
		}
	}
	return nil
}

// nginxMimeTypes returns the mime.types beside nginx's own configuration, or
// "" when there is none (everything is then application/octet-stream).
func nginxMimeTypes(build string) string {
	if m := confPathFlag.FindStringSubmatch(build); m != nil {
		if p := filepath.Join(filepath.Dir(m[1]), "mime.types"); isFile(p) {
			return p
		}
	}
	return ""
}

// isFile reports whether path names a regular file.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// numbered prefixes each line of s with its number, to match nginx's
// "in nginx.conf:12" messages.
func numbered(s string) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		fmt.Fprintf(&b, "%3d  %s\n", i+1, line)
	}
	return b.String()
}
