package dictionary

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/internal/interop"
)

// Python's zstandard, which shares no code with klauspost's, checks a dcz
// body on its own terms: the RFC 9842 §5 header names the dictionary's
// SHA-256, and the rest is a zstd frame that decodes with the dictionary
// loaded as raw content, to build 2, within the window the RFC allows.
func TestPythonZstandardDecodesDCZ(t *testing.T) {
	py := interop.Python(t, "zstandard")
	v1, v2 := versionedScript(1, 300<<10), versionedScript(2, 300<<10)
	dir := t.TempDir()
	d := New(v1)
	for _, tt := range []struct {
		name string
		body func() ([]byte, error)
	}{
		{"one shot", func() ([]byte, error) { return AppendDCZ(nil, v2, d, 19) }},
		{"streamed", func() ([]byte, error) { return streamDCZ(d, v2) }},
	} {
		body, err := tt.body()
		if err != nil {
			t.Fatal(err)
		}
		dictPath, bodyPath := filepath.Join(dir, "dict"), filepath.Join(dir, tt.name+".dcz")
		if err := os.WriteFile(dictPath, v1, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bodyPath, body, 0o644); err != nil {
			t.Fatal(err)
		}
		const script = `
import sys, hashlib, zstandard
d, body = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
assert body[:8] == bytes([0x5e, 0x2a, 0x4d, 0x18, 0x20, 0, 0, 0]), "magic"
assert body[8:40] == hashlib.sha256(d).digest(), "hash"
params = zstandard.get_frame_parameters(body[40:])
limit = min(max(8 << 20, len(d) * 5 // 4), 128 << 20)
assert params.window_size <= limit, ("window", params.window_size, limit)
assert params.dict_id == 0, ("dict id", params.dict_id)
dctx = zstandard.ZstdDecompressor(dict_data=zstandard.ZstdCompressionDict(d, dict_type=zstandard.DICT_TYPE_RAWCONTENT))
out = dctx.decompressobj().decompress(body[40:])
print(hashlib.sha256(out).hexdigest())
`
		sum := sha256.Sum256(v2)
		if got := strings.TrimSpace(py.Run(t, "-c", script, dictPath, bodyPath)); got != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: python decoded to sha256 %s, want %x", tt.name, got, sum)
		}
	}
}

// streamDCZ encodes src through the streaming dcz encoder the middleware
// pools, in 16 KB writes.
func streamDCZ(d *Dictionary, src []byte) ([]byte, error) {
	var out bytes.Buffer
	w, err := codec{d: d, level: defaultLevel}.NewWriter(&out, defaultLevel)
	if err != nil {
		return nil, err
	}
	for len(src) > 0 {
		n := min(len(src), 16<<10)
		if _, err := w.Write(src[:n]); err != nil {
			return nil, err
		}
		src = src[n:]
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
