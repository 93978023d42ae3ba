package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/squeezehttp/squeeze/benchmarks/load"
)

// machine writes the section that says where the numbers come from.
func (r *Report) machine() {
	r.section("Machine", "")
	rows := [][]string{
		{"CPU", cpuModel()},
		{"Cores (runtime.NumCPU)", fmt.Sprint(runtime.NumCPU())},
		{"Caches of the first core", cacheSizes()},
		{"Memory", memTotal()},
		{"Kernel", kernel()},
		{"Go", runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH},
		{"Load average at start", loadAverage()},
	}
	for _, p := range load.Peers() {
		v := load.Version(p.Name)
		if v == "" {
			v = "not installed"
		}
		rows = append(rows, []string{p.Name, v})
	}
	brotli, zstd := load.NginxModules()
	rows = append(rows, []string{"nginx brotli modules", yesNo(brotli != nil, "loaded from Debian's libnginx-mod-http-brotli-*", "missing")})
	rows = append(rows, []string{"nginx zstd module", yesNo(zstd != nil, "loaded", "none: Debian ships no zstd module for nginx, so nginx answers zstd requests with gzip or identity")})
	for _, m := range requirements(r.ModuleDir) {
		rows = append(rows, []string{m[0], m[1]})
	}
	writeTable(r.md, []string{"", ""}, rows)
}

func yesNo(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}

// machineLine is a one-line summary for the README.
func machineLine() string {
	return fmt.Sprintf("%s, %d cores, %s", cpuModel(), runtime.NumCPU(), runtime.Version())
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// cacheSizes lists the first core's caches as Linux describes them
// ("L1 Data 32K, ..."): time per response depends on them when the bodies'
// working set does not fit.
func cacheSizes() string {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	var caches []string
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return strings.TrimSpace(string(b))
		}
		if level, size := read("level"), read("size"); level != "" && size != "" {
			caches = append(caches, fmt.Sprintf("L%s %s %s", level, read("type"), size))
		}
	}
	if len(caches) == 0 {
		return "unknown"
	}
	return strings.Join(caches, ", ")
}

func memTotal() string {
	b, _ := os.ReadFile("/proc/meminfo")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(v), &kb)
			return fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	return "unknown"
}

func kernel() string {
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		return runtime.GOOS
	}
	str := func(a [65]int8) string {
		var b strings.Builder
		for _, c := range a {
			if c == 0 {
				break
			}
			b.WriteByte(byte(c))
		}
		return b.String()
	}
	return str(u.Sysname) + " " + str(u.Release)
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// requirements lists the benchmarks module's direct requirements (the
// peers and the codec libraries) with their versions, from its go.mod.
func requirements(moduleDir string) [][2]string {
	b, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return nil
	}
	var out [][2]string
	inBlock := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inBlock = true
			continue
		case line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inBlock:
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 || strings.Contains(line, "// indirect") && !strings.Contains(f[0], "brotli") ||
			strings.HasPrefix(f[0], "github.com/squeezehttp/") {
			continue
		}
		out = append(out, [2]string{f[0], f[1]})
	}
	return out
}
