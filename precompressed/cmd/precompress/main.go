// Command precompress writes precompressed sidecars (.zst, .br, .gz) beside
// the compressible files of a directory tree, for precompressed.FileServer
// to serve. It runs precompressed.Generate; see its documentation for what
// is written and when a sidecar counts as up to date.
//
// Usage:
//
//	go run github.com/squeezehttp/squeeze/precompressed/cmd/precompress@latest [flags] DIR
//
// Flags:
//
//	-codings list    sidecars to write, in order: zstd,br,gzip (the default) or a subset
//	-min-size n      smallest file compressed, in bytes (default 512), or "all"
//	                 for every size (precompressed.EverySize)
//	-min-saving f    fraction of a file a sidecar must save to be kept (default
//	                 0.05), or "any" for any saving (precompressed.AnySaving)
//	-manifest name   keep a manifest of hashes and sizes at DIR/name, e.g. precompress.json
//	-rewrite         replace existing sidecars that are not up to date even when
//	                 they hold the file in fewer bytes than a new one (by default
//	                 such a sidecar, made by a slower encoder, is kept)
//	-deltas          write a .dcz delta of each versioned file against each
//	                 other version of it in its directory (see below)
//	-delete-orphans  delete sidecars whose original is gone, and deltas whose
//	                 original or, with -deltas, dictionary is gone
//	-dotfiles        include names starting with a dot
//	-workers n       files compressed at once (default: the number of CPUs)
//	-q               print nothing but errors
//	-v               print each sidecar written or deleted
//
// With -deltas, files whose names differ only in the version that
// precompressed.DefaultVersionPattern finds (app.1.js and app.2.js,
// app.3f2a1b9c.js and app.77e0d412.js) are versions of one asset: each
// gets a delta (precompressed.DeltaName) against each of the others, which
// a FileServer with Config.Dictionary serves to clients holding that
// version. Keep the one or two previous builds beside the new one.
//
// Progress goes to standard error when it is a terminal; a summary line
// goes to standard output unless -q. The exit status is 0 on success, 1 when
// generating failed and 2 for bad usage.
//
// For a site embedded with embed.FS, put the generator beside the embed
// directive, so that go generate refreshes the sidecars and the manifest
// before go build embeds them:
//
//	//go:generate go run github.com/squeezehttp/squeeze/precompressed/cmd/precompress -q -manifest precompress.json site
//	//go:embed site
//	var site embed.FS
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/squeezehttp/squeeze/precompressed"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var progress io.Writer
	if isTerminal(os.Stderr) {
		progress = os.Stderr
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, progress))
}

// isTerminal reports whether f is a character device, as a terminal is,
// without reaching beyond the standard library. /dev/null is one too; the
// progress line is then lost, harmlessly.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// run is the command without the process around it: it parses args,
// generates, and returns the exit status. progress, if not nil, receives
// the progress line (unless -q).
func run(ctx context.Context, args []string, stdout, stderr, progress io.Writer) int {
	fl := flag.NewFlagSet("precompress", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: precompress [flags] DIR")
		fmt.Fprintln(stderr, "Writes .zst, .br and .gz sidecars beside the compressible files under DIR.")
		fl.PrintDefaults()
	}
	codings := fl.String("codings", "zstd,br,gzip", "comma-separated `list` of sidecars to write: zstd, br, gzip")
	minSize := fl.String("min-size", strconv.Itoa(precompressed.DefaultMinSize), "smallest file compressed, in `bytes`, or \"all\" for every size")
	minSaving := fl.String("min-saving", strconv.FormatFloat(precompressed.DefaultMinSaving, 'g', -1, 64), "`fraction` of a file's size a sidecar must save to be kept, or \"any\"")
	manifest := fl.String("manifest", "", "keep a manifest of hashes and sizes at DIR/`name` (e.g. "+precompressed.DefaultManifest+")")
	rewrite := fl.Bool("rewrite", false, "replace existing sidecars that are not up to date even when they hold the file in fewer bytes")
	orphans := fl.Bool("delete-orphans", false, "delete sidecars whose original is gone, and deltas whose original or dictionary is gone")
	deltas := fl.Bool("deltas", false, "write a .dcz delta of each versioned file against each other version of it in its directory")
	dotfiles := fl.Bool("dotfiles", false, "include files and directories whose name starts with a dot")
	workers := fl.Int("workers", 0, "files compressed at once (0: one per CPU)")
	quiet := fl.Bool("q", false, "print nothing but errors")
	verbose := fl.Bool("v", false, "print each sidecar written or deleted")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(stderr, "precompress: need exactly one directory")
		fl.Usage()
		return 2
	}
	sidecars, err := parseCodings(*codings)
	if err != nil {
		fmt.Fprintln(stderr, "precompress:", err)
		return 2
	}
	size, sizeErr := parseMinSize(*minSize)
	saving, savingErr := parseMinSaving(*minSaving)
	for _, bad := range []struct {
		wrong bool
		flag  string
		value any
		why   string
	}{
		{sizeErr != nil, "-min-size", *minSize, fmt.Sprint(sizeErr)},
		{savingErr != nil, "-min-saving", *minSaving, fmt.Sprint(savingErr)},
		{*workers < 0, "-workers", *workers, "must not be negative"},
		{*manifest != "" && (!fs.ValidPath(*manifest) || *manifest == "."), "-manifest", *manifest, "must be a slash-separated name inside DIR, such as " + precompressed.DefaultManifest},
	} {
		if bad.wrong {
			fmt.Fprintf(stderr, "precompress: %s %v: %s\n", bad.flag, bad.value, bad.why)
			return 2
		}
	}
	cfg := precompressed.GenerateConfig{
		Sidecars:      sidecars,
		MinSize:       size,
		MinSaving:     saving,
		Manifest:      *manifest,
		Rewrite:       *rewrite,
		DeleteOrphans: *orphans,
		Dotfiles:      *dotfiles,
		Workers:       *workers,
	}
	dir := fl.Arg(0)
	if *deltas {
		if cfg.Deltas, err = versions(dir); err != nil {
			fmt.Fprintln(stderr, message(err))
			return 1
		}
	}
	if !*quiet {
		cfg.Progress = progress
		if *verbose {
			cfg.Log = stdout
		}
	}
	rep, err := precompressed.Generate(ctx, dir, cfg)
	if err != nil {
		fmt.Fprintln(stderr, message(err))
		return 1
	}
	if !*quiet {
		fmt.Fprintln(stdout, summary(dir, rep))
	}
	return 0
}

// parseMinSize reads -min-size: a positive number of bytes, or "all" for
// precompressed.EverySize. Zero is refused rather than given a meaning: in
// GenerateConfig it means the default, and it once meant "all" here.
func parseMinSize(v string) (int64, error) {
	if v == "all" {
		return precompressed.EverySize, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil:
		return 0, errors.New(`want a number of bytes or "all"`)
	case n <= 0:
		return 0, errors.New(`must be at least 1; "all" compresses every size`)
	}
	return n, nil
}

// parseMinSaving reads -min-saving: a fraction above 0 and below 1, or
// "any" for precompressed.AnySaving. Zero is refused as -min-size 0 is.
func parseMinSaving(v string) (float64, error) {
	if v == "any" {
		return precompressed.AnySaving, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil:
		return 0, errors.New(`want a fraction or "any"`)
	case f == 0:
		return 0, errors.New(`must be above 0; "any" keeps every sidecar smaller than its file`)
	case !(f > 0 && f < 1):
		return 0, errors.New("must be above 0 and below 1")
	}
	return f, nil
}

// message is err as the command reports it: with one prefix, its own
// rather than the library's too, and each GenerateConfig field named by
// the flag that sets it.
func message(err error) string {
	return "precompress: " + fieldFlags.Replace(strings.TrimPrefix(err.Error(), "precompressed: "))
}

var fieldFlags = strings.NewReplacer(
	"GenerateConfig.Sidecars", "-codings",
	"GenerateConfig.MinSize", "-min-size",
	"GenerateConfig.MinSaving", "-min-saving",
	"GenerateConfig.Manifest", "-manifest",
	"GenerateConfig.Workers", "-workers",
)

// versions lists the tree and returns a GenerateConfig.Deltas that pairs
// each file with the others in its directory whose names differ only in
// the version.
func versions(dir string) (func(string) []string, error) {
	groups := map[string][]string{}
	pattern := regexp.MustCompile(precompressed.DefaultVersionPattern)
	keyOf := func(name string) string {
		d, base := path.Split(name)
		loc := pattern.FindStringSubmatchIndex(base)
		if len(loc) < 4 || loc[2] < 0 {
			return ""
		}
		return d + base[:loc[2]] + "\x00" + base[loc[3]:]
	}
	err := fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if key := keyOf(name); key != "" {
			groups[key] = append(groups[key], name)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing versions: %w", err)
	}
	return func(name string) []string {
		return slices.DeleteFunc(slices.Clone(groups[keyOf(name)]), func(o string) bool { return o == name })
	}, nil
}

// parseCodings turns "zstd,br" into the sidecars FileServer looks for.
func parseCodings(list string) ([]precompressed.Sidecar, error) {
	known := map[string]precompressed.Sidecar{}
	for _, sc := range precompressed.DefaultSidecars() {
		known[sc.Coding] = sc
	}
	var out []precompressed.Sidecar
	for _, c := range strings.Split(list, ",") {
		c = strings.ToLower(strings.TrimSpace(c))
		sc, ok := known[c]
		if !ok {
			return nil, fmt.Errorf("-codings %s: unknown coding %q (want zstd, br, gzip)", list, c)
		}
		out = append(out, sc)
	}
	return out, nil
}

// summary is the one line printed after a run.
func summary(dir string, rep precompressed.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "precompress %s: %d files, %d compressible (%d bytes); %d sidecars written, %d up to date, %d kept (no larger than new ones), %d not worth it, %d deleted",
		dir, rep.Files, rep.Compressible, rep.CompressibleBytes, rep.Written, rep.UpToDate, rep.Kept, rep.NotWorthIt, rep.Deleted)
	codings := make([]string, 0, len(rep.SidecarBytes))
	for c := range rep.SidecarBytes {
		codings = append(codings, c)
	}
	sort.Strings(codings)
	for _, c := range codings {
		fmt.Fprintf(&b, "; %s %d bytes", c, rep.SidecarBytes[c])
	}
	return b.String()
}
