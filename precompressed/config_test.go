package precompressed

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
)

// buildPanic returns what build panicked with, or "" when it did not.
func buildPanic(build func() http.Handler) (msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
		}
	}()
	build()
	return ""
}

// A misconfiguration is reported when the server is built, naming what is
// wrong, never by a panic on the first request: FileServer, like
// http.FileServer, returns no error, so it panics at once.
func TestMisconfigurationPanicsWhenBuiltNamingTheField(t *testing.T) {
	fsys := siteFS(t)
	for _, tc := range []struct {
		name  string
		build func() http.Handler
		want  string // in the panic message
	}{
		{"nil fs.FS", func() http.Handler { return FileServer(nil, Config{}) }, "FileServer: the fs.FS is nil"},
		{"nil os.Root", func() http.Handler { return FileServerRoot(nil, Config{}) }, "FileServerRoot: the *os.Root is nil"},
		{"empty sidecar coding", func() http.Handler {
			return FileServer(fsys, Config{Sidecars: []Sidecar{{"br", ".br"}, {"", ".x"}}})
		}, "Config.Sidecars[1]"},
		{"coding list as one coding", func() http.Handler {
			return FileServer(fsys, Config{Sidecars: []Sidecar{{"br, gzip", ".br"}}})
		}, "Config.Sidecars[0]"},
		{"identity sidecar", func() http.Handler {
			return FileServer(fsys, Config{Sidecars: []Sidecar{{"identity", ".txt"}}})
		}, "Config.Sidecars[0]"},
		{"extension without a dot", func() http.Handler {
			return FileServer(fsys, Config{Sidecars: []Sidecar{{"br", "br"}}})
		}, "Config.Sidecars[0]"},
		{"extension with a slash", func() http.Handler {
			return FileServer(fsys, Config{Sidecars: []Sidecar{{"br", ".b/r"}}})
		}, "Config.Sidecars[0]"},
		{"extension twice", func() http.Handler {
			return FileServer(fsys, Config{Sidecars: []Sidecar{{"br", ".br"}, {"gzip", ".br"}}})
		}, "Config.Sidecars[1]"},
		{"empty sidecar list", func() http.Handler { return FileServer(fsys, Config{Sidecars: []Sidecar{}}) }, "Config.Sidecars is empty"},
		{"negative FallbackMinSize", func() http.Handler { return FileServer(fsys, Config{FallbackMinSize: -1}) }, "Config.FallbackMinSize -1"},
		{"negative stat budget", func() http.Handler { return FileServer(fsys, Config{StatCacheBytes: -1}) }, "Config.StatCacheBytes -1"},
		{"file cache too small to hold a file", func() http.Handler { return FileServer(fsys, Config{FileCacheBytes: 4096}) }, "Config.FileCacheBytes 4096"},
		{"nil fallback codec", func() http.Handler {
			return FileServer(fsys, Config{Fallback: []encoding.Codec{encoding.Gzip(), nil}})
		}, "Config.Fallback[1]"},
		{"fallback coding twice", func() http.Handler {
			return FileServer(fsys, Config{Fallback: []encoding.Codec{encoding.Gzip(), encoding.Gzip()}})
		}, "Config.Fallback[1]"},
		{"unsendable match-dest", func() http.Handler {
			return FileServer(fsys, Config{Dictionary: &DictionaryConfig{MatchDest: []string{"script\n"}}})
		}, "Config.Dictionary.MatchDest"},
		{"negative dictionary max-age", func() http.Handler {
			return FileServer(fsys, Config{Dictionary: &DictionaryConfig{MaxAge: -time.Hour}})
		}, "Config.Dictionary.MaxAge"},
		{"sub-second dictionary max-age", func() http.Handler {
			return FileServer(fsys, Config{Dictionary: &DictionaryConfig{MaxAge: time.Millisecond}})
		}, "Config.Dictionary.MaxAge 1ms"},
	} {
		msg := buildPanic(tc.build)
		if !strings.HasPrefix(msg, "precompressed: ") || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: building panicked with %q; want a precompressed: message naming %s", tc.name, msg, tc.want)
		}
	}
}

// What the checks must let through: the recommended setup, every field
// used sensibly, and upper-case codings, which are lowered.
func TestSensibleConfigurationsBuild(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fsys := siteFS(t)
	for name, build := range map[string]func() http.Handler{
		"zero Config":    func() http.Handler { return FileServer(fsys, Config{}) },
		"FileServerRoot": func() http.Handler { return FileServerRoot(root, Config{}) },
		"everything set": func() http.Handler {
			return FileServer(fsys, Config{
				Sidecars:           []Sidecar{{"BR", ".br"}, {"gzip", ".gz"}, {"gzip", ".gzip"}, {"x-custom", ".xc"}},
				StatCacheBytes:     1 << 20,
				CheckInterval:      -1,
				Fallback:           []encoding.Codec{encoding.Deflate()},
				FallbackCacheBytes: -1,
				FallbackMinSize:    EverySize,
				Dictionary:         &DictionaryConfig{MatchDest: []string{"script", "style"}, MaxAge: time.Hour},
			})
		},
		"no fallback codecs": func() http.Handler { return FileServer(fsys, Config{Fallback: []encoding.Codec{}}) },
	} {
		if msg := buildPanic(build); msg != "" {
			t.Errorf("%s: building panicked: %s", name, msg)
		}
	}
}

// An empty Fallback list compresses nothing on the fly, so identity
// responses of files without sidecars do not vary.
func TestEmptyFallbackListCompressesNothing(t *testing.T) {
	css := []byte(strings.Repeat("body { margin: 0; padding: 0; }\n", 100))
	h := FileServer(fstest.MapFS{"site.css": file(css)}, Config{Fallback: []encoding.Codec{}})
	w := do(h, "GET", "/site.css", "Accept-Encoding", "gzip, br, zstd")
	if w.Code != 200 || w.Header().Get("Content-Encoding") != "" || w.Header().Get("Vary") != "" {
		t.Errorf("status %d, Content-Encoding %q, Vary %q; want the file as it is, not varying", w.Code, w.Header().Get("Content-Encoding"), w.Header().Get("Vary"))
	}
}

// VersionedMatch with a pattern that has no group would mark no file as a
// dictionary, silently: it panics when called, naming the pattern.
func TestVersionedMatchRefusesPatternWithoutGroup(t *testing.T) {
	msg := buildPanic(func() http.Handler {
		VersionedMatch("/", regexp.MustCompile(`\.[0-9a-f]{8}\.`))
		return nil
	})
	if !strings.HasPrefix(msg, "precompressed: VersionedMatch: ") || !strings.Contains(msg, `[0-9a-f]{8}`) {
		t.Errorf("VersionedMatch with a group-less pattern panicked with %q; want a message naming the pattern", msg)
	}
	if msg := buildPanic(func() http.Handler { VersionedMatch("/", regexp.MustCompile(`\.([0-9a-f]{8})\.`)); return nil }); msg != "" {
		t.Errorf("VersionedMatch with a group panicked: %s", msg)
	}
}
