package main

import (
	"bytes"

	"context"
	"crypto/sha256"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/squeezehttp/squeeze/precompressed"
)

var script = []byte(strings.Repeat("function hello(name) { return 'hello, ' + name; }\n", 40))

// site writes a tree with one compressible script and returns its path.
func site(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.js"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runCmd runs the command in-process and returns its exit status and
// output. progress, if not nil, stands for a terminal on stderr.
func runCmd(t *testing.T, progress *bytes.Buffer, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	var p io.Writer
	if progress != nil {
		p = progress // not a typed nil: run checks for nil
	}
	code = run(context.Background(), args, &out, &errb, p)
	return code, out.String(), errb.String()
}

func TestRunWritesSidecarsManifestAndSummary(t *testing.T) {
	dir := site(t)
	code, out, errOut := runCmd(t, nil, "-manifest", "precompress.json", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
	for _, name := range []string{"app.js.zst", "app.js.br", "app.js.gz", "precompress.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	if !strings.Contains(out, "3 sidecars written") {
		t.Errorf("summary %q does not say 3 sidecars were written", out)
	}
	if _, out, _ := runCmd(t, nil, "-manifest", "precompress.json", dir); !strings.Contains(out, "0 sidecars written, 3 up to date") {
		t.Errorf("second run summary %q: want 0 written, 3 up to date", out)
	}
}

func TestRunFlagsChooseCodingsAndOutput(t *testing.T) {
	dir := site(t)
	code, out, _ := runCmd(t, nil, "-v", "-codings", "br,gzip", dir)
	if code != 0 || strings.Count(out, "wrote ") != 2 {
		t.Errorf("-v -codings br,gzip: exit %d, output %q; want a line per sidecar, 2 of them", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.js.zst")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("app.js.zst written though -codings left zstd out (err %v)", err)
	}
	if code, out, errOut := runCmd(t, nil, "-q", "-delete-orphans", dir); code != 0 || out != "" || errOut != "" {
		t.Errorf("-q: exit %d, stdout %q, stderr %q; want 0 and silence", code, out, errOut)
	}
	small := site(t)
	if code, _, _ := runCmd(t, nil, "-min-size", "100000", "-codings", "zstd", small); code != 0 {
		t.Errorf("-min-size: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(small, "app.js.zst")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("app.js.zst written for a file under -min-size (err %v)", err)
	}
}

// -min-size all is precompressed.EverySize: a file under the default of
// 512 bytes gets its sidecar, which the default leaves out.
func TestRunMinSizeAllCompressesEverySize(t *testing.T) {
	dir := t.TempDir()
	tiny := bytes.Repeat([]byte("let a = 1;\n"), 20) // 220 bytes
	if err := os.WriteFile(filepath.Join(dir, "tiny.js"), tiny, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd(t, nil, "-codings", "gzip", dir); code != 0 {
		t.Fatalf("default: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "tiny.js.gz")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("tiny.js.gz written under the default -min-size (err %v)", err)
	}
	if code, _, errOut := runCmd(t, nil, "-min-size", "all", "-codings", "gzip", dir); code != 0 {
		t.Fatalf("-min-size all: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "tiny.js.gz")); err != nil {
		t.Errorf("-min-size all left tiny.js without a sidecar: %v", err)
	}
}

// -min-saving any is precompressed.AnySaving: a sidecar that saves less
// than the default fraction is kept, which the default deletes.
func TestRunMinSavingAnyKeepsEverySmallerSidecar(t *testing.T) {
	dir := t.TempDir()
	// Random bytes after a run of one letter: gzip saves a little of the
	// run, under 5 % of the whole.
	noise := make([]byte, 2000)
	rand.NewChaCha8([32]byte{}).Read(noise)
	body := append(bytes.Repeat([]byte("a"), 80), noise...)
	if err := os.WriteFile(filepath.Join(dir, "app.js"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd(t, nil, "-codings", "gzip", dir); code != 0 {
		t.Fatalf("default: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.js.gz")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("app.js.gz kept under the default -min-saving (err %v); the test's body saves too much", err)
	}
	if code, _, errOut := runCmd(t, nil, "-min-saving", "any", "-codings", "gzip", dir); code != 0 {
		t.Fatalf("-min-saving any: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.js.gz")); err != nil {
		t.Errorf("-min-saving any did not keep a smaller app.js.gz: %v", err)
	}
}

func TestRunProgressOnlyWhereGiven(t *testing.T) {
	var progress bytes.Buffer
	if code, _, errOut := runCmd(t, &progress, site(t)); code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(progress.String(), "\rprecompress: 1/1 files") {
		t.Errorf("progress %q: want a carriage-return status line", progress.String())
	}
	progress.Reset()
	// The run must succeed: a -q that failed before the walk would write no
	// progress either.
	if code, _, errOut := runCmd(t, &progress, "-q", site(t)); code != 0 {
		t.Fatalf("-q: exit %d, stderr %q", code, errOut)
	}
	if progress.Len() != 0 {
		t.Errorf("-q still wrote progress %q", progress.String())
	}
}

// A usage error exits 2 with one line that names the flag and the value
// that is wrong.
func TestRunUsageErrorsNameTheFlag(t *testing.T) {
	dir := site(t)
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{}, "need exactly one directory"},
		{[]string{dir, dir}, "need exactly one directory"},
		{[]string{"-codings", "br,deflate", dir}, `precompress: -codings br,deflate: unknown coding "deflate"`},
		{[]string{"-min-saving", "2", dir}, "precompress: -min-saving 2: "},
		{[]string{"-min-saving", "1", dir}, "precompress: -min-saving 1: "},
		{[]string{"-min-saving", "-0.5", dir}, "precompress: -min-saving -0.5: "},
		{[]string{"-min-saving", "0", dir}, `precompress: -min-saving 0: must be above 0; "any" keeps every sidecar`},
		{[]string{"-min-saving", "NaN", dir}, "precompress: -min-saving NaN: "},
		{[]string{"-min-size", "-1", dir}, "precompress: -min-size -1: "},
		{[]string{"-min-size", "0", dir}, `precompress: -min-size 0: must be at least 1; "all" compresses every size`},
		{[]string{"-min-size", "some", dir}, "precompress: -min-size some: "},
		{[]string{"-workers", "-1", dir}, "precompress: -workers -1: "},
		{[]string{"-manifest", "../precompress.json", dir}, "precompress: -manifest ../precompress.json: "},
		{[]string{"-min-saving", "lots", dir}, "-min-saving"},
		{[]string{"-no-such-flag", dir}, "-no-such-flag"},
	} {
		if code, _, errOut := runCmd(t, nil, tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("precompress %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A failure exits 1 with a message carrying the command's prefix only,
// not the library's after it, and naming the flag when one is at fault.
func TestRunFailureExitsOneWithOnePrefix(t *testing.T) {
	code, _, errOut := runCmd(t, nil, filepath.Join(t.TempDir(), "missing"))
	if code != 1 || !strings.HasPrefix(errOut, "precompress: ") || strings.Contains(errOut, "precompressed:") {
		t.Errorf("missing directory: exit %d, stderr %q; want 1 and one line starting with precompress: alone", code, errOut)
	}
	dir := site(t)
	if err := os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`{"todo": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCmd(t, nil, "-manifest", "notes.json", dir)
	if want := "precompress: -manifest notes.json: not a manifest"; code != 1 || !strings.HasPrefix(errOut, want) {
		t.Errorf("-manifest naming another file: exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
}

func TestIsTerminalFalseForFiles(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file taken for a terminal: progress would go into it")
	}
}

// The built command, run as go generate would run it, with stderr not a
// terminal: sidecars written, no progress line on stderr, status 0; and a
// failure exits 1.
func TestCommandBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "precompress")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := site(t)
	cmd := exec.Command(bin, "-manifest", "precompress.json", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() != 0 {
		t.Fatalf("precompress: %v, stderr %q", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "app.js.br")); err != nil {
		t.Errorf("app.js.br not written by the command: %v", err)
	}
	err = exec.Command(bin, filepath.Join(dir, "missing")).Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("precompress on a missing directory: %v, want exit status 1", err)
	}
}

func TestDeltasPairVersionsOfOneAsset(t *testing.T) {
	dir := t.TempDir()
	v1 := []byte(strings.Repeat("export function a(x) { return x * 3; }\n", 100) + "export const v = 1;\n")
	v2 := []byte(strings.Repeat("export function a(x) { return x * 3; }\n", 100) + "export const v = 2;\n")
	for name, b := range map[string][]byte{"app.1.js": v1, "app.2.js": v2, "lib.js": script} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runCmd(t, nil, "-q", "-codings", "zstd", "-deltas", dir); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := []string{
		precompressed.DeltaName("app.2.js", sha256.Sum256(v1)),
		precompressed.DeltaName("app.1.js", sha256.Sum256(v2)),
	}
	for _, name := range want {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("-deltas did not write %s: %v", name, err)
		}
	}
	got, _ := filepath.Glob(filepath.Join(dir, "*.dcz"))
	if len(got) != len(want) {
		t.Errorf("-deltas wrote %d deltas, want %d (none for the unversioned lib.js): %v", len(got), len(want), got)
	}
}

// An existing sidecar that holds the file in no more bytes than a new one
// is kept, and the summary says so; -rewrite replaces it anyway.
func TestRunKeepsExistingSidecarUnlessRewrite(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "0 sidecars written, 0 up to date, 1 kept"},
		{[]string{"-rewrite"}, "1 sidecars written, 0 up to date, 0 kept"},
	} {
		dir := site(t)
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(script)
		zw.Close()
		p := filepath.Join(dir, "app.js.gz")
		if err := os.WriteFile(p, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		args := append(tc.args, "-codings", "gzip", dir)
		if code, out, errOut := runCmd(t, nil, args...); code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("precompress %q: exit %d, stdout %q, stderr %q; want a summary with %q", args, code, out, errOut, tc.want)
		}
	}
}

// TestDocsFlagValuesAreAccepted: every value docs/precompress.md gives for
// -min-size and -min-saving, the default and the special word, is one the
// command accepts (the table once said 0, which it refuses).
func TestDocsFlagValuesAreAccepted(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/precompress.md")
	if err != nil {
		t.Fatal(err)
	}
	parsers := map[string]func(string) error{
		"-min-size":   func(v string) error { _, err := parseMinSize(v); return err },
		"-min-saving": func(v string) error { _, err := parseMinSaving(v); return err },
	}
	for flag, parse := range parsers {
		var row string
		for _, line := range strings.Split(string(doc), "\n") {
			if strings.HasPrefix(line, "| `"+flag+" ") {
				row = line
			}
		}
		if row == "" {
			t.Fatalf("docs/precompress.md has no row for %s", flag)
		}
		// Every `value` in the row after the flag's own cell.
		cells := strings.Split(row, "`")
		var values []string
		for i := 3; i < len(cells); i += 2 {
			values = append(values, cells[i])
		}
		if len(values) < 2 {
			t.Fatalf("%s: row %q names %v; want the default and the special word", flag, row, values)
		}
		for _, v := range values {
			if err := parse(v); err != nil {
				t.Errorf("docs/precompress.md gives %s %s, which the command refuses: %v", flag, v, err)
			}
		}
	}
}
