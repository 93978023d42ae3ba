package snippets

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/encoding/dictionary"
	"github.com/squeezehttp/squeeze/precompressed"
	"github.com/squeezehttp/squeeze/wsdeflate"
)

// checkedInPackage are the rows of the README's defaults table whose values
// are unexported constants, checked by a test of their own package.
var checkedInPackage = map[string]string{
	"precompressed.Config.FallbackMinSize":    "precompressed.TestReadmeStatesFileServerDefaults",
	"precompressed.Config.FallbackCacheBytes": "precompressed.TestReadmeStatesFileServerDefaults",
	"precompressed.Config.CheckInterval":      "precompressed.TestReadmeStatesFileServerDefaults",
	"precompressed.Config.FileCacheBytes":     "precompressed.TestReadmeStatesFileServerDefaults",
}

// TestReadmeDefaultsAreTheCodes checks every row of the README's
// "Defaults" table against the code: the default cell (and, where it
// states values, the meaning cell) must be what the constants and the
// zero configurations give. A row with no check here fails, so that a new
// row cannot go unchecked.
func TestReadmeDefaultsAreTheCodes(t *testing.T) {
	rows := defaultsTable(t)
	want := map[string][]string{
		"encoding.Config.Codings":                      {codingsDefault()},
		"encoding.Coding.Level":                        {"0: the codec's default", levelsMeaning(t)},
		"encoding.Config.MinSize":                      {size(encoding.DefaultMinSize)},
		"encoding.Config.Types":                        {"`encoding.CompressibleType`"},
		"encoding.Config.BufferSize":                   {size(encoding.DefaultBufferSize)},
		"encoding.Config.ETag":                         {"`encoding." + etagModeName(encoding.ETagMode(0)) + "`"},
		"encoding.Config.Jitter":                       {"0: off"},
		"encoding.Config.NotAcceptable":                {"false"},
		"encoding.Config.Cache":                        {"nil: off"},
		"encoding.NewCache":                            {size(encoding.DefaultCacheBytes)},
		"encoding.Config.IdleRelease":                  {duration(encoding.DefaultIdleRelease)},
		"encoding.Config.MaxRequestSize":               {size(encoding.DefaultMaxRequestSize)},
		"precompressed.Config.Sidecars":                {sidecarsDefault()},
		"precompressed.Config.StatCacheBytes":          {size(precompressed.DefaultStatCacheBytes)},
		"precompressed.Config.FallbackRecompressAfter": {fmt.Sprintf("%d responses", precompressed.DefaultFallbackRecompressAfter)},
		"dictionary.NewStore":                          {size(dictionary.DefaultStoreBytes)},
		"wsdeflate.Config.ServerMaxWindowBits":         {windowBitsDefault(t)},
		"wsdeflate.AcceptOptions.CompressionLevel":     {fmt.Sprint(wsdeflate.DefaultLevel)},
		"wsdeflate.AcceptOptions.CompressionThreshold": {size(wsdeflate.DefaultCompressionThreshold)},
		"wsdeflate.AcceptOptions.ReadLimit":            {size(wsdeflate.DefaultReadLimit)},
		"wsdeflate.AcceptOptions.IdleRelease":          {duration(wsdeflate.DefaultIdleRelease)},
	}
	for key, cells := range rows {
		if _, ok := checkedInPackage[key]; ok {
			continue
		}
		w, ok := want[key]
		if !ok {
			t.Errorf("README.md defaults row %q has no check in TestReadmeDefaultsAreTheCodes", key)
			continue
		}
		for i, v := range w {
			if i+1 >= len(cells) || cells[i+1] != v {
				t.Errorf("README.md defaults row %q: cell %d is %q, the code says %q", key, i+2, cellAt(cells, i+1), v)
			}
		}
	}
	for key := range want {
		if _, ok := rows[key]; !ok {
			t.Errorf("README.md defaults table has no row %q", key)
		}
	}
	for key, test := range checkedInPackage {
		if _, ok := rows[key]; !ok {
			t.Errorf("README.md defaults table has no row %q, which %s checks", key, test)
		}
	}
	checkDefaultTypes(t)
}

// defaultsTable returns the rows of the README's "## Defaults" table by
// their first cell (backticks taken off), each with all its cells.
func defaultsTable(t *testing.T) map[string][]string {
	text, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "\n## Defaults\n")
	if !ok {
		t.Fatal(`README.md has no "## Defaults" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string][]string{}
	for line := range strings.Lines(section) {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(strings.TrimSpace(line), "|"), " | ") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows[strings.Trim(cells[0], "`")] = cells
	}
	if len(rows) == 0 {
		t.Fatal("README.md's Defaults section has no table rows")
	}
	return rows
}

func cellAt(cells []string, i int) string {
	if i < len(cells) {
		return cells[i]
	}
	return ""
}

// size writes a byte count as the table does.
func size[N int | int64](n N) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 64<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func duration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

func codingsDefault() string {
	var parts []string
	for _, c := range encoding.DefaultCodings() {
		parts = append(parts, fmt.Sprintf("%s %d", c.Codec.Name(), c.Level))
	}
	return strings.Join(parts, ", ")
}

// levelsMeaning is what the Level row says of each codec's range and default.
func levelsMeaning(t *testing.T) string {
	zmin, zmax, zdef := encoding.Zstd().Levels()
	bmin, bmax, bdef := encoding.Brotli().Levels()
	gmin, gmax, gdef := encoding.Gzip().Levels()
	if dmin, dmax, ddef := encoding.Deflate().Levels(); dmin != gmin || dmax != gmax || ddef != gdef {
		t.Errorf("deflate's levels %d..%d default %d differ from gzip's, which the README's row merges", dmin, dmax, ddef)
	}
	return fmt.Sprintf("zstd %d (%d–%d), br %d (%d–%d), gzip and deflate %d (%d–%d)", zdef, zmin, zmax, bdef, bmin, bmax, gdef, gmin, gmax)
}

func etagModeName(m encoding.ETagMode) string {
	switch m {
	case encoding.ETagSuffix:
		return "ETagSuffix"
	case encoding.ETagWeaken:
		return "ETagWeaken"
	case encoding.ETagKeep:
		return "ETagKeep"
	}
	return fmt.Sprint(int(m))
}

func sidecarsDefault() string {
	var exts []string
	for _, s := range precompressed.DefaultSidecars() {
		exts = append(exts, "`"+s.Ext+"`")
	}
	return strings.Join(exts, ", ")
}

// windowBitsDefault is the window a zero Config answers a bare offer with,
// after checking that it takes context over in both directions.
func windowBitsDefault(t *testing.T) string {
	_, p, ok := wsdeflate.Negotiate([]string{"permessage-deflate"}, wsdeflate.Config{})
	if !ok || p.ServerNoContextTakeover || p.ClientNoContextTakeover {
		t.Errorf("a zero wsdeflate.Config answers a bare offer with %+v (accepted %v); the README says on, context takeover both ways", p, ok)
	}
	return fmt.Sprint(p.ServerMaxWindowBits)
}

// checkDefaultTypes checks that a zero Config compresses the media types
// encoding.CompressibleType accepts and no others, as the Types row says.
func checkDefaultTypes(t *testing.T) {
	body := strings.Repeat("squeeze ", 512)
	for _, typ := range []string{"text/html", "application/json", "image/svg+xml", "image/png", "application/zip", "font/woff2", "application/octet-stream"} {
		h := encoding.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", typ)
			w.Write([]byte(body))
		}))
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if compressed := rec.Header().Get("Content-Encoding") != ""; compressed != encoding.CompressibleType(typ) {
			t.Errorf("a zero Config with %s: compressed %v, encoding.CompressibleType says %v", typ, compressed, encoding.CompressibleType(typ))
		}
	}
}
