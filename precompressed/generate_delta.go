package precompressed

import (
	"context"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"

	"github.com/squeezehttp/squeeze/encoding/dictionary"
)

// deltas brings the delta sidecars of the compressible original o up to
// date, one for each of its previous versions that cfg.Deltas names and
// that exist: each is left alone if up to date (by the same rule as the
// other sidecars), else written, or deleted when not worth keeping. The
// dictionary's hash is in a delta's name, so a changed previous version
// gets a new delta and the old one becomes an orphan.
func (g *generator) deltas(ctx context.Context, o original, out *outcome, prev manifestFile, same bool) error {
	for _, previous := range g.cfg.Deltas(o.name) {
		if previous == o.name || !fs.ValidPath(previous) {
			continue
		}
		if st, err := g.root.Stat(previous); err != nil || !st.Mode().IsRegular() {
			continue // no such version (any more): nothing to make
		}
		dictBytes, err := fs.ReadFile(g.root.FS(), previous)
		if err != nil {
			return fmt.Errorf("precompressed: %w", err)
		}
		dict := dictionary.New(dictBytes)
		dname := DeltaName(o.name, dict.Hash())
		ext := strings.TrimPrefix(dname, o.name)
		st, err := g.root.Lstat(dname)
		exists := err == nil && st.Mode().IsRegular()
		if err != nil && !isNotExist(err) {
			return fmt.Errorf("precompressed: %w", err)
		}
		if exists {
			current, err := g.upToDate(ctx, o, dname, st, same, prev.Sidecars[ext])
			if err != nil {
				return err
			}
			if current != nil {
				out.upToDate++
				out.keep(Sidecar{Coding: "dcz", Ext: ext}, *current)
				continue
			}
		}
		blob, err := g.writeDelta(ctx, o, dname, dict)
		if err != nil {
			return err
		}
		switch {
		case blob != nil:
			out.written++
			out.keep(Sidecar{Coding: "dcz", Ext: ext}, *blob)
			out.log = append(out.log, fmt.Sprintf("wrote %s: %d bytes, %.1f %% of the original, against %s", dname, blob.Size, 100*float64(blob.Size)/float64(o.info.Size()), previous))
		case exists:
			if err := g.root.Remove(dname); err != nil && !isNotExist(err) {
				return fmt.Errorf("precompressed: %w", err)
			}
			out.deleted++
			out.log = append(out.log, fmt.Sprintf("deleted %s: no longer worth keeping", dname))
			fallthrough
		default:
			out.notWorthIt++
		}
	}
	return nil
}

// writeDelta encodes o as dcz with dict into dname, as GenerateDelta does
// but through the generator's atomic write, so that the delta gets o's
// modification time and a hash for the manifest. It returns nil, writing
// nothing, when the delta does not save MinSaving of the original.
func (g *generator) writeDelta(ctx context.Context, o original, dname string, dict *dictionary.Dictionary) (*manifestBlob, error) {
	src, err := fs.ReadFile(g.root.FS(), o.name)
	if err != nil {
		return nil, fmt.Errorf("precompressed: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := dictionary.AppendDCZ(nil, src, dict, g.deltaLevel())
	if err != nil {
		return nil, fmt.Errorf("precompressed: delta of %s: %w", o.name, err)
	}
	size := int64(len(src))
	if !g.worthKeeping(int64(len(b)), size) {
		return nil, nil
	}
	var blob *manifestBlob
	err = g.atomicWrite(dname, o.info.ModTime(), func(w *hashingWriter) (bool, error) {
		if _, err := w.Write(b); err != nil {
			return false, err
		}
		blob = &manifestBlob{Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}
		return true, nil
	})
	return blob, err
}

// deltaLevel is the zstd level of the deltas.
func (g *generator) deltaLevel() int {
	if g.cfg.DeltaLevel == 0 {
		return DefaultDeltaLevel
	}
	return g.cfg.DeltaLevel
}

// deltaOrphans returns the delta sidecars found by the walk that no longer
// belong: their original is gone, or, when cfg.Deltas is set, the run did
// not keep them beside their original, because none of the previous
// versions it names has that hash any more (the dictionary was deleted or
// changed). Without cfg.Deltas, deltas made by GenerateDelta are left
// beside originals that exist.
func (g *generator) deltaOrphans(t *tree, entries map[string]manifestFile) []string {
	var out []string
	for _, name := range t.deltas {
		orig := deltaOriginal(name)
		if !t.names[orig] {
			out = append(out, name)
			continue
		}
		if g.cfg.Deltas == nil {
			continue
		}
		if _, kept := entries[orig].Sidecars[strings.TrimPrefix(name, orig)]; !kept {
			out = append(out, name)
		}
	}
	return out
}
