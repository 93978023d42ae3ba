package precompressed

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/httpfield"
)

// outcome is what a worker did with one original.
type outcome struct {
	name         string
	entry        manifestFile // the original and its sidecars as they now are
	compressible bool
	written      int
	upToDate     int
	kept         int
	notWorthIt   int
	deleted      int
	bytes        map[string]int64 // by coding, of the sidecars kept
	log          []string
	err          error
}

// process brings the sidecars of one original up to date: each configured
// sidecar of a compressible original is left alone if up to date, else
// written, or deleted when not worth keeping; then so is each delta
// sidecar that cfg.Deltas asks for.
func (g *generator) process(ctx context.Context, enc *sidecarEncoder, o original) outcome {
	out := outcome{name: o.name, entry: manifestFile{Size: o.info.Size()}, bytes: map[string]int64{}}
	fail := func(err error) outcome { out.err = err; return out }
	if g.cfg.Manifest != "" {
		sum, _, err := g.hashFile(ctx, o.name)
		if err != nil {
			return fail(err)
		}
		out.entry.SHA256 = sum
	}
	ok, err := g.compressible(o.name)
	if err != nil {
		return fail(err)
	}
	if !ok {
		return out
	}
	size := o.info.Size()
	out.compressible = size >= g.minSize
	prev := g.old.files[o.name]
	same := prev.SHA256 != "" && prev.SHA256 == out.entry.SHA256 && prev.Size == size
	for _, sc := range g.sidecars {
		sname := o.name + sc.Ext
		st, err := g.root.Lstat(sname)
		exists := err == nil && st.Mode().IsRegular()
		if err != nil && !isNotExist(err) {
			return fail(err)
		}
		if exists {
			current, err := g.upToDate(ctx, o, sname, st, same, prev.Sidecars[sc.Ext])
			if err != nil {
				return fail(err)
			}
			if current != nil {
				out.upToDate++
				out.keep(sc, *current)
				continue
			}
		}
		// An existing sidecar that holds the original, perhaps from a
		// slower encoder, stays unless this run makes a smaller one.
		var existing *manifestBlob
		if exists && out.compressible && !g.cfg.Rewrite {
			if existing, err = g.holdsOriginal(ctx, o, sname, sc.Coding, &out.entry.SHA256); err != nil {
				return fail(err)
			}
		}
		var blob *manifestBlob
		var made int64
		if out.compressible {
			if blob, made, err = g.writeSidecar(ctx, enc, o, sc, existing); err != nil {
				return fail(err)
			}
		}
		switch {
		case blob != nil:
			out.written++
			out.keep(sc, *blob)
			out.log = append(out.log, fmt.Sprintf("wrote %s: %d bytes, %.1f %% of the original", sname, blob.Size, 100*float64(blob.Size)/float64(size)))
		case existing != nil:
			// Given the original's time, as a sidecar written now would
			// be, so that FileServer takes it as fresh and the next run
			// as up to date.
			if err := os.Chtimes(g.path(sname), o.info.ModTime(), o.info.ModTime()); err != nil {
				return fail(fmt.Errorf("precompressed: %w", err))
			}
			out.kept++
			out.keep(sc, *existing)
			out.log = append(out.log, fmt.Sprintf("kept %s: %d bytes, no larger than the %d this run made", sname, existing.Size, made))
		case exists:
			// Not worth keeping now, and out of date: a server would
			// otherwise go on serving an old version of the file.
			if err := g.root.Remove(sname); err != nil && !isNotExist(err) {
				return fail(fmt.Errorf("precompressed: %w", err))
			}
			out.deleted++
			out.log = append(out.log, fmt.Sprintf("deleted %s: no longer worth keeping", sname))
			fallthrough
		default:
			if out.compressible {
				out.notWorthIt++
			}
		}
	}
	if g.cfg.Deltas != nil && out.compressible {
		if err := g.deltas(ctx, o, &out, prev, same); err != nil {
			return fail(err)
		}
	}
	return out
}

// keep records a sidecar that stays on disk.
func (out *outcome) keep(sc Sidecar, blob manifestBlob) {
	out.bytes[sc.Coding] += blob.Size
	if out.entry.Sidecars == nil {
		out.entry.Sidecars = map[string]manifestBlob{}
	}
	out.entry.Sidecars[sc.Ext] = blob
}

// upToDate returns the record of the existing sidecar sname of o if it is
// up to date, or nil. Without a manifest that means having o's
// modification time. With one, it means that the manifest's hashes of the
// original and of the sidecar are those of the files (same reports the
// former); the sidecar then gets o's time back if it lost it.
func (g *generator) upToDate(ctx context.Context, o original, sname string, st fs.FileInfo, same bool, prev manifestBlob) (*manifestBlob, error) {
	if g.cfg.Manifest == "" {
		if !st.ModTime().Equal(o.info.ModTime()) {
			return nil, nil
		}
		return &manifestBlob{Size: st.Size()}, nil
	}
	if !same || prev.SHA256 == "" || prev.Size != st.Size() {
		return nil, nil
	}
	sum, _, err := g.hashFile(ctx, sname)
	if err != nil || sum != prev.SHA256 {
		return nil, err
	}
	if !st.ModTime().Equal(o.info.ModTime()) {
		if err := os.Chtimes(g.path(sname), o.info.ModTime(), o.info.ModTime()); err != nil {
			return nil, fmt.Errorf("precompressed: %w", err)
		}
	}
	return &prev, nil
}

// writeSidecar compresses o into its sidecar sc, if that saves enough and
// is smaller than existing (when not nil), and returns what it wrote; nil
// when it wrote nothing. made is the size of what it compressed.
func (g *generator) writeSidecar(ctx context.Context, enc *sidecarEncoder, o original, sc Sidecar, existing *manifestBlob) (blob *manifestBlob, made int64, err error) {
	src, err := g.root.Open(o.name)
	if err != nil {
		return nil, 0, fmt.Errorf("precompressed: %w", err)
	}
	defer src.Close()
	size := o.info.Size()
	err = g.atomicWrite(o.name+sc.Ext, o.info.ModTime(), func(w *hashingWriter) (bool, error) {
		if err := enc.encode(ctx, w, src, size, sc.Coding); err != nil {
			return false, err
		}
		made = w.n
		if !g.worthKeeping(w.n, size) || existing != nil && w.n >= existing.Size {
			return false, nil
		}
		blob = &manifestBlob{Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}
		return true, nil
	})
	return blob, made, err
}

// worthKeeping reports whether a sidecar of n bytes saves enough of an
// original of size bytes (MinSaving).
func (g *generator) worthKeeping(n, size int64) bool {
	return n < size && n <= int64(float64(size)*(1-g.saving))
}

// holdsOriginal returns the record of the existing sidecar sname if it
// decodes, in coding, to o's exact bytes and is worth keeping; nil if not.
// origSum is o's hex SHA-256, computed here if still empty. Decoding stops
// one byte past o's size, so a sidecar that inflates without end costs no
// more than o.
func (g *generator) holdsOriginal(ctx context.Context, o original, sname, coding string, origSum *string) (*manifestBlob, error) {
	sum, n, err := g.hashFile(ctx, sname)
	if err != nil {
		return nil, err
	}
	size := o.info.Size()
	if !g.worthKeeping(n, size) {
		return nil, nil
	}
	if *origSum == "" {
		if *origSum, _, err = g.hashFile(ctx, o.name); err != nil {
			return nil, err
		}
	}
	f, err := g.root.Open(sname)
	if err != nil {
		return nil, fmt.Errorf("precompressed: %w", err)
	}
	defer f.Close()
	dec, err := newDecoder(coding, ctxReader{ctx, f})
	if err != nil {
		return nil, nil // not even a header of its coding: replace it
	}
	defer dec.Close()
	h := sha256.New()
	got, err := io.Copy(h, io.LimitReader(dec, size+1))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err != nil || got != size || hex.EncodeToString(h.Sum(nil)) != *origSum {
		return nil, nil // corrupt, or another version of the file
	}
	return &manifestBlob{Size: n, SHA256: sum}, nil
}

// writeFile writes the content of r to name atomically, with the current
// time as its modification time.
func (g *generator) writeFile(ctx context.Context, name string, r io.Reader) error {
	return g.atomicWrite(name, time.Time{}, func(w *hashingWriter) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		_, err := io.Copy(w, r)
		return err == nil, err
	})
}

// atomicWrite has fill write a temporary file in name's directory and, if
// fill reports keep, renames it to name with mtime as its modification
// time (unless zero). The temporary file is removed on every other path,
// cancellation included.
//
// The rename and the time change go by path, because os.Root has no
// Rename or Chtimes before Go 1.25. That stays inside dir: the directory
// part of name was reached by the walk, which never enters a link, and
// rename replaces a link at name rather than follow it.
func (g *generator) atomicWrite(name string, mtime time.Time, fill func(w *hashingWriter) (keep bool, err error)) (err error) {
	tmp := path.Join(path.Dir(name), "."+path.Base(name)+"."+rand.Text()[:8]+tempSuffix)
	f, err := g.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("precompressed: %w", err)
	}
	renamed := false
	defer func() {
		if !renamed {
			f.Close()
			g.root.Remove(tmp)
		}
	}()
	// Written without fsync: a sidecar is a build output that the next
	// run re-makes, not data to protect across a crash.
	bw := bufio.NewWriterSize(f, 64<<10)
	keep, err := fill(&hashingWriter{w: bw, h: sha256.New()})
	if err != nil || !keep {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("precompressed: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("precompressed: %w", err)
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(g.path(tmp), mtime, mtime); err != nil {
			return fmt.Errorf("precompressed: %w", err)
		}
	}
	if err := os.Rename(g.path(tmp), g.path(name)); err != nil {
		return fmt.Errorf("precompressed: %w", err)
	}
	renamed = true
	return nil
}

// hashingWriter counts and hashes what goes through it.
type hashingWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (w *hashingWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	return n, err
}

// hashFile returns the hex SHA-256 and the size of name, checking ctx as
// it reads.
func (g *generator) hashFile(ctx context.Context, name string) (string, int64, error) {
	f, err := g.root.Open(name)
	if err != nil {
		return "", 0, fmt.Errorf("precompressed: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return "", 0, fmt.Errorf("precompressed: hashing %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// ctxReader fails its reads once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// compressible reports whether name is of a type worth compressing, as
// FileServer decides it: from the extension, or sniffed from the first 512
// bytes when the extension says nothing.
func (g *generator) compressible(name string) (bool, error) {
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		f, err := g.root.Open(name)
		if err != nil {
			return false, fmt.Errorf("precompressed: %w", err)
		}
		defer f.Close()
		buf := make([]byte, 512)
		n, err := io.ReadFull(f, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return false, fmt.Errorf("precompressed: %w", err)
		}
		ctype = http.DetectContentType(buf[:n])
	}
	return encoding.CompressibleType(httpfield.MediaType(ctype)), nil
}

// compressibleByExt reports whether name's extension is of a compressible
// type.
func compressibleByExt(name string) bool {
	ctype := mime.TypeByExtension(path.Ext(name))
	return ctype != "" && encoding.CompressibleType(httpfield.MediaType(ctype))
}

// path is name's operating-system path.
func (g *generator) path(name string) string {
	return filepath.Join(g.dir, filepath.FromSlash(name))
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// wrapErr adds the package name to an error that lacks it, such as a
// context's.
func wrapErr(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("precompressed: generate stopped: %w", err)
	}
	return err
}
