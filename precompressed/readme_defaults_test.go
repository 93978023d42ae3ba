package precompressed

import (
	"bytes"
	"fmt"
	"os"
	"testing"
	"time"
)

// The README's defaults table states these defaults; the rest
// of the table is checked in internal/snippets.
func TestReadmeStatesFileServerDefaults(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if DefaultFallbackCacheBytes%(1<<20) != 0 || DefaultFileCacheBytes%(1<<20) != 0 || DefaultCheckInterval%time.Second != 0 {
		t.Fatal("the defaults no longer fit the table's units: change this test and the README")
	}
	for _, row := range []string{
		fmt.Sprintf("| `precompressed.Config.FallbackMinSize` | %d bytes |", DefaultMinSize),
		fmt.Sprintf("| `precompressed.Config.FallbackCacheBytes` | %d MiB |", DefaultFallbackCacheBytes>>20),
		fmt.Sprintf("| `precompressed.Config.CheckInterval` | %d s |", DefaultCheckInterval/time.Second),
		fmt.Sprintf("| `precompressed.Config.FileCacheBytes` | %d MiB |", DefaultFileCacheBytes>>20),
	} {
		if !bytes.Contains(readme, []byte("\n"+row)) {
			t.Errorf("README.md has no defaults row starting %s", row)
		}
	}
}
