package precompressed

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/squeezehttp/squeeze/encoding/dictionary"
)

// DefaultDeltaLevel is the zstd level of GenerateDelta's deltas when none
// is given: a delta is made once per release and served many times.
const DefaultDeltaLevel = 19

// DeltaConfig names the files of one delta sidecar for GenerateDelta.
type DeltaConfig struct {
	// Name is the file to encode, such as "js/app.3f2a1b9c.js":
	// slash-separated and relative to GenerateDelta's directory, which it
	// cannot leave. Required.
	Name string

	// Previous is the earlier version of Name that clients keep as a
	// dictionary, such as "js/app.9e8d7c6b.js", named as Name is. Required.
	Previous string

	// Level is the zstd level, 1..22. Default DefaultDeltaLevel.
	Level int
}

// GenerateDelta writes, beside the file cfg.Name in the directory dir, its
// delta sidecar against the file cfg.Previous: Name's bytes as dcz (RFC
// 9842 §5) with Previous's bytes, an earlier version that clients keep as
// a dictionary, as the raw dictionary. A FileServer with Config.Dictionary
// serves it to clients whose Available-Dictionary names Previous. It
// returns the delta's name (DeltaName), written through a temporary file so
// that a server never sees half of it.
func GenerateDelta(dir string, cfg DeltaConfig) (string, error) {
	name, previous, level := cfg.Name, cfg.Previous, cfg.Level
	if level == 0 {
		level = DefaultDeltaLevel
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("precompressed: %w", err)
	}
	defer root.Close()
	src, err := fs.ReadFile(root.FS(), name)
	if err != nil {
		return "", fmt.Errorf("precompressed: %w", err)
	}
	dictBytes, err := fs.ReadFile(root.FS(), previous)
	if err != nil {
		return "", fmt.Errorf("precompressed: %w", err)
	}
	dict := dictionary.New(dictBytes)
	out, err := dictionary.AppendDCZ(nil, src, dict, level)
	if err != nil {
		return "", fmt.Errorf("precompressed: delta of %s: %w", name, err)
	}
	delta := DeltaName(name, dict.Hash())
	var suffix [4]byte
	_, _ = rand.Read(suffix[:]) // crypto/rand.Read never fails
	tmp := path.Join(path.Dir(name), "."+path.Base(delta)+"."+hex.EncodeToString(suffix[:])+".tmp")
	if err := writeNew(root, tmp, out); err != nil {
		return "", err
	}
	// By path: os.Root has no Rename before Go 1.25. The names were
	// resolved inside dir above, and rename replaces a link at delta
	// rather than follow it.
	if err := os.Rename(filepath.Join(dir, filepath.FromSlash(tmp)), filepath.Join(dir, filepath.FromSlash(delta))); err != nil {
		_ = root.Remove(tmp)
		return "", fmt.Errorf("precompressed: %w", err)
	}
	return delta, nil
}

// writeNew writes b to a new file name in root.
func writeNew(root *os.Root, name string, b []byte) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("precompressed: %w", err)
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = root.Remove(name)
		return fmt.Errorf("precompressed: %w", err)
	}
	return nil
}
