package precompressed

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// original is a file the walk found that may get sidecars.
type original struct {
	name string
	info fs.FileInfo // of the file, a link followed
}

// tree is what the walk found.
type tree struct {
	originals []original
	sidecars  []string        // names ending in one of the sidecar extensions
	deltas    []string        // names of delta sidecars (DeltaName's form)
	temps     []string        // left by an interrupted run
	names     map[string]bool // every non-directory name, links included
}

// run walks the tree, compresses what needs it on g.workers goroutines, and
// then deletes orphans and writes the manifest.
func (g *generator) run(ctx context.Context) (Report, error) {
	rep := Report{SidecarBytes: map[string]int64{}}
	t, err := g.walk(ctx)
	if err != nil {
		return rep, err
	}
	entries, err := g.compressAll(ctx, t.originals, &rep)
	if err != nil {
		return rep, err
	}
	for _, name := range t.temps {
		// A run killed before it could clean up leaves these; nothing
		// else makes names ending in tempSuffix.
		if err := g.root.Remove(name); err != nil && !isNotExist(err) {
			return rep, fmt.Errorf("precompressed: %w", err)
		}
	}
	if g.cfg.DeleteOrphans {
		for _, name := range append(g.orphans(t), g.deltaOrphans(t, entries)...) {
			if err := g.root.Remove(name); err != nil && !isNotExist(err) {
				return rep, fmt.Errorf("precompressed: deleting orphan: %w", err)
			}
			rep.Deleted++
			g.logf("deleted %s: its original or dictionary is gone", name)
		}
	}
	if g.cfg.Manifest != "" {
		if err := g.writeManifest(ctx, entries); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// walk lists the tree. Directories are never entered through a link, so
// the walk cannot loop or leave dir; a link to a file is followed only if
// os.Root finds its target inside dir.
func (g *generator) walk(ctx context.Context) (*tree, error) {
	t := &tree{names: map[string]bool{}}
	err := fs.WalkDir(g.root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if d.IsDir() {
			if !g.cfg.Dotfiles && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		t.names[name] = true
		switch {
		case strings.HasSuffix(name, tempSuffix):
			t.temps = append(t.temps, name)
			return nil
		case !g.cfg.Dotfiles && strings.HasPrefix(d.Name(), "."),
			name == g.cfg.Manifest, d.Name() == DefaultManifest:
			// FileServer never serves a manifest: no sidecars for it.
			return nil
		case g.sidecarExt(name) != "":
			t.sidecars = append(t.sidecars, name)
			return nil
		case deltaOriginal(name) != "":
			t.deltas = append(t.deltas, name)
			return nil
		}
		// Stat follows a link, but only within the root: a link out of
		// the tree fails here and is skipped.
		info, err := g.root.Stat(name)
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		t.originals = append(t.originals, original{name: name, info: info})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("precompressed: walking %s: %w", g.dir, err)
	}
	return t, nil
}

// sidecarExt returns the extension of the configured sidecar that name is,
// or "".
func (g *generator) sidecarExt(name string) string {
	for _, sc := range g.sidecars {
		if len(name) > len(sc.Ext) && strings.HasSuffix(name, sc.Ext) {
			return sc.Ext
		}
	}
	return ""
}

// orphans returns the sidecars whose original is missing, among those
// whose original Generate would have compressed.
func (g *generator) orphans(t *tree) []string {
	var out []string
	for _, name := range t.sidecars {
		base := strings.TrimSuffix(name, g.sidecarExt(name))
		if !t.names[base] && compressibleByExt(base) {
			out = append(out, name)
		}
	}
	return out
}

// compressAll runs process on every original, g.workers at a time, adding
// up the outcomes in rep. It returns the manifest entries of the
// originals; on the first error it cancels the others and returns it.
func (g *generator) compressAll(parent context.Context, originals []original, rep *Report) (map[string]manifestFile, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	jobs := make(chan original)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for range min(g.workers, max(len(originals), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			enc := new(sidecarEncoder)
			for o := range jobs {
				results <- g.process(ctx, enc, o)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, o := range originals {
			select {
			case jobs <- o:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	entries := make(map[string]manifestFile, len(originals))
	var firstErr error
	done := 0
	for out := range results {
		done++
		if out.err != nil {
			if firstErr == nil {
				firstErr = out.err
				cancel()
			}
			continue
		}
		entries[out.name] = out.entry
		rep.add(out)
		for _, line := range out.log {
			g.logf("%s", line)
		}
		if g.cfg.Progress != nil {
			fmt.Fprintf(g.cfg.Progress, "\rprecompress: %d/%d files, %d sidecars written", done, len(originals), rep.Written)
		}
	}
	if g.cfg.Progress != nil && len(originals) > 0 {
		fmt.Fprintln(g.cfg.Progress)
	}
	rep.Files = len(originals)
	if firstErr == nil {
		firstErr = parent.Err() // cancelled after the last file began
	}
	if firstErr != nil {
		if err := parent.Err(); err != nil {
			firstErr = err // the cause, not the cancel it led to
		}
		return nil, wrapErr(firstErr)
	}
	return entries, nil
}

// add counts one outcome.
func (rep *Report) add(out outcome) {
	if out.compressible {
		rep.Compressible++
		rep.CompressibleBytes += out.entry.Size
	}
	rep.Written += out.written
	rep.UpToDate += out.upToDate
	rep.Kept += out.kept
	rep.NotWorthIt += out.notWorthIt
	rep.Deleted += out.deleted
	for coding, n := range out.bytes {
		rep.SidecarBytes[coding] += n
	}
}

// writeManifest records entries in the manifest, unless it already says
// exactly that: a run that changed nothing writes nothing.
func (g *generator) writeManifest(ctx context.Context, entries map[string]manifestFile) error {
	m := &Manifest{files: entries}
	b, err := m.marshal()
	if err != nil {
		return fmt.Errorf("precompressed: manifest: %w", err)
	}
	if old, err := fs.ReadFile(g.root.FS(), g.cfg.Manifest); err == nil && bytes.Equal(old, b) {
		return nil
	}
	return g.writeFile(ctx, g.cfg.Manifest, bytes.NewReader(b))
}

// logf writes one line to cfg.Log, if set.
func (g *generator) logf(format string, args ...any) {
	if g.cfg.Log != nil {
		fmt.Fprintf(g.cfg.Log, format+"\n", args...)
	}
}
