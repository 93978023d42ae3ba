package precompressed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"strings"

	"github.com/squeezehttp/squeeze/encoding"
)

// GenerateConfig tunes Generate. The zero value writes zstd, brotli and
// gzip sidecars for every compressible file of 512 bytes or more that they
// make at least 5 % smaller, with one worker per core, silently.
type GenerateConfig struct {
	// Sidecars lists the sidecars to write. Nil means DefaultSidecars, the
	// set FileServer looks for. Generate can write the codings "zstd",
	// "br" and "gzip"; naming another is an error.
	Sidecars []Sidecar

	// MinSize is the smallest original compressed. Zero means 512 bytes
	// (DefaultMinSize), as for Config.FallbackMinSize; EverySize
	// compresses files of every size. A negative value is an error.
	MinSize int64

	// MinSaving is the fraction of the original's size a sidecar must save
	// to be kept, below 1. Zero means 0.05 (DefaultMinSaving): below that,
	// the client's decoding and the extra file outweigh the bytes.
	// AnySaving keeps every sidecar smaller than its original. A negative
	// value, or 1 or more, is an error. A sidecar not worth keeping is not
	// written, and one left from an earlier run is deleted.
	MinSaving float64

	// Manifest, if not empty, is the slash-separated name, relative to the
	// directory, of the manifest to keep: every original's size and
	// SHA-256 and those of its sidecars, as JSON (see ReadManifest and
	// Config.Manifest). DefaultManifest is the usual name; a name that
	// is not valid in an fs.FS is an error. An existing file there must
	// be a manifest: Generate refuses to overwrite anything else.
	Manifest string

	// Rewrite replaces every existing sidecar that is not up to date with
	// the one this run makes. By default an existing sidecar that decodes
	// to the original and is no larger than the new one is kept instead,
	// given the original's modification time and counted in Report.Kept:
	// a slower encoder (zopfli, for one) may have made it smaller. A
	// sidecar that does not decode to the original is always replaced.
	Rewrite bool

	// DeleteOrphans deletes sidecars whose original is missing. Only names
	// that Generate could have written count: one of Sidecars' extensions
	// after a name whose extension is of a compressible type, so that
	// "backup.tar.gz" is never taken for an orphan of "backup.tar". Off by
	// default, because FileServer serves such sidecars on purpose (decoded
	// for clients that need it).
	DeleteOrphans bool

	// Deltas, if set, returns the previous versions of the original name:
	// slash-separated names, relative to the directory, of earlier builds
	// that clients may hold as dictionaries (see DictionaryConfig). Each
	// compressible original of MinSize or more gets, for each of them
	// that exists, a delta sidecar as GenerateDelta writes it (DeltaName),
	// kept, made incrementally and recorded in the manifest like the other
	// sidecars (by the extension after the original's name, its coding
	// "dcz" in Report.SidecarBytes). With DeleteOrphans, a delta whose
	// original is gone, or whose dictionary none of the names returned
	// now has, is deleted. It is called from the Workers goroutines at
	// once. Nil: no deltas are made, and DeleteOrphans deletes only deltas
	// whose original is gone.
	Deltas func(name string) []string

	// DeltaLevel is the zstd level of the deltas, 1 to 22. Zero means
	// DefaultDeltaLevel.
	DeltaLevel int

	// Dotfiles includes files and directories whose name starts with a
	// dot. By default they are skipped, as FileServer hides them.
	Dotfiles bool

	// Workers is how many files are compressed at once. Zero means
	// runtime.GOMAXPROCS(0); a negative value is an error. Each worker
	// keeps a zstd encoder that holds a file of up to 8 MiB whole with 8
	// bytes of match tree per byte of it and about 10 MiB of tables (and,
	// for larger files, one with an 8 MB window), and makes a brotli
	// quality-11 encoder per file, so peak memory grows by tens of
	// megabytes with each worker, up to about 90 MiB for a file of 8 MiB:
	// fewer workers trade time for memory.
	Workers int

	// Progress, if set, receives a one-line status after each file,
	// rewritten in place with a carriage return, and a final newline: it is
	// meant for a terminal.
	Progress io.Writer

	// Log, if set, receives a line for each sidecar written or deleted.
	Log io.Writer
}

// Report is what Generate did.
type Report struct {
	// Files counts the originals found (every regular file that is not a
	// sidecar, a delta sidecar or a manifest).
	Files int
	// Compressible counts those of a compressible type and at least
	// MinSize bytes, the ones that get sidecars.
	Compressible int
	// CompressibleBytes is the total size of the Compressible originals.
	CompressibleBytes int64
	// Written counts the sidecars written by this run, deltas included,
	// as are they in the counts below.
	Written int
	// UpToDate counts the sidecars already up to date, left alone.
	UpToDate int
	// Kept counts the existing sidecars that were not up to date but held
	// the original in no more bytes than this run made, and were kept (see
	// GenerateConfig.Rewrite).
	Kept int
	// NotWorthIt counts the sidecars not kept because they saved less than
	// MinSaving.
	NotWorthIt int
	// Deleted counts the sidecars deleted: no longer worth keeping, or,
	// with DeleteOrphans, orphaned.
	Deleted int
	// SidecarBytes maps each coding to the total size of its sidecars now
	// on disk (written or up to date).
	SidecarBytes map[string]int64
}

// DefaultMinSaving is the fraction a sidecar must save when
// GenerateConfig.MinSaving is zero.
const DefaultMinSaving = 0.05

// AnySaving, as GenerateConfig.MinSaving, keeps every sidecar smaller than
// its original, by however little. It is the smallest positive fraction.
const AnySaving = math.SmallestNonzeroFloat64

const (
	// tempSuffix ends the names of files being written. They start with a
	// dot too, so that FileServer never serves one half-written.
	tempSuffix = ".precompress-tmp"
)

// Generate writes precompressed sidecars beside the compressible files of
// the directory tree dir, as FileServer serves them: for app.js, app.js.zst
// (zstd with optimal parsing, as `zstd -19` does, in a window of at most
// 8 MB, RFC 9659 §3),
// app.js.br (brotli quality 11, the smallest window that holds the file,
// up to 16 MB) and app.js.gz (gzip level 9). Compressible means of a type
// encoding.CompressibleType accepts, from the name's extension or, without
// one, sniffed from the content, as FileServer decides it.
//
// Each sidecar gets its original's modification time, and is written to a
// temporary file in the same directory and renamed into place, so that a
// server never sees half a sidecar. A later run is incremental: a sidecar
// is up to date, and left alone, when its modification time equals its
// original's; with a Manifest, instead, when the manifest's hashes of the
// original and the sidecar match both files (a checkout that resets
// modification times then costs no recompression: Generate only sets the
// sidecar's time back). An existing sidecar is never replaced by a larger
// one, unless GenerateConfig.Rewrite says so.
//
// The tree is read through os.Root: symbolic links are followed only to
// files inside dir, never into directories, and a link out of dir is
// skipped. Files are compressed by Workers goroutines. When ctx is done,
// Generate stops once each worker finishes the block of input it is
// compressing (brotli quality 11's blocks, the largest, take longest),
// removes its temporary files and returns an error wrapping ctx's;
// sidecars finished by then stay, and the manifest is left as it was. The
// first error stops the run the same way. A cfg that cannot work is
// reported, naming the field, before anything is read or written.
func Generate(ctx context.Context, dir string, cfg GenerateConfig) (Report, error) {
	g, err := newGenerator(dir, cfg)
	if err != nil {
		return Report{}, err
	}
	defer g.root.Close()
	return g.run(ctx)
}

// generator is one Generate run.
type generator struct {
	dir      string
	root     *os.Root
	sidecars []Sidecar
	minSize  int64
	saving   float64
	workers  int
	cfg      GenerateConfig
	old      *Manifest // the manifest of the previous run, empty if none
}

func newGenerator(dir string, cfg GenerateConfig) (*generator, error) {
	g := &generator{dir: dir, cfg: cfg, minSize: cfg.MinSize, saving: cfg.MinSaving, workers: cfg.Workers}
	g.sidecars = cfg.Sidecars
	if g.sidecars == nil {
		g.sidecars = DefaultSidecars()
	}
	if cfg.Sidecars != nil && len(cfg.Sidecars) == 0 {
		return nil, errors.New("precompressed: GenerateConfig.Sidecars is empty; leave it nil for DefaultSidecars")
	}
	for i, sc := range g.sidecars {
		if !generatable(sc.Coding) || len(sc.Ext) < 2 || sc.Ext[0] != '.' || strings.ContainsAny(sc.Ext, "/\\\x00") {
			return nil, fmt.Errorf("precompressed: GenerateConfig.Sidecars[%d] %+v: need coding zstd, br or gzip and an extension like \".br\"", i, sc)
		}
	}
	var ok bool
	if g.minSize, ok = minSize(cfg.MinSize); !ok {
		return nil, fmt.Errorf("precompressed: GenerateConfig.MinSize %d: must not be negative (EverySize compresses every size, 0 means DefaultMinSize)", cfg.MinSize)
	}
	switch {
	case g.saving == 0:
		g.saving = DefaultMinSaving
	case g.saving < 0 || math.IsNaN(g.saving):
		return nil, fmt.Errorf("precompressed: GenerateConfig.MinSaving %v: must be positive (AnySaving keeps every smaller sidecar, 0 means DefaultMinSaving)", g.saving)
	case g.saving >= 1:
		return nil, fmt.Errorf("precompressed: GenerateConfig.MinSaving %v: a sidecar cannot save all of its original", g.saving)
	}
	switch {
	case g.workers == 0:
		g.workers = runtime.GOMAXPROCS(0)
	case g.workers < 0:
		return nil, fmt.Errorf("precompressed: GenerateConfig.Workers %d: must not be negative (zero means one per core)", g.workers)
	}
	if lo, hi, _ := encoding.Zstd().Levels(); cfg.DeltaLevel != 0 && (cfg.DeltaLevel < lo || cfg.DeltaLevel > hi) {
		return nil, fmt.Errorf("precompressed: GenerateConfig.DeltaLevel %d: a zstd level is %d to %d", cfg.DeltaLevel, lo, hi)
	}
	if cfg.Manifest != "" && (!fs.ValidPath(cfg.Manifest) || cfg.Manifest == ".") {
		return nil, fmt.Errorf("precompressed: GenerateConfig.Manifest %q: need a slash-separated name inside the directory, such as %q", cfg.Manifest, DefaultManifest)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("precompressed: %w", err)
	}
	g.root = root
	g.old = &Manifest{files: map[string]manifestFile{}}
	if cfg.Manifest != "" {
		b, err := fs.ReadFile(root.FS(), cfg.Manifest)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			root.Close()
			return nil, fmt.Errorf("precompressed: reading manifest: %w", err)
		default:
			if g.old, err = parseManifest(b); err != nil {
				root.Close()
				return nil, fmt.Errorf("precompressed: GenerateConfig.Manifest %s: not a manifest Generate wrote (%v): delete it or name another", cfg.Manifest, err)
			}
		}
	}
	return g, nil
}
