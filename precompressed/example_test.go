package precompressed_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/squeezehttp/squeeze/precompressed"
)

// A site with app.js and the gzip sidecar a build step wrote beside it. A
// client accepting gzip gets the sidecar, one that does not gets the
// original, and both responses say they vary with Accept-Encoding.
func ExampleFileServer() {
	js := []byte(strings.Repeat("console.log('hi');\n", 100))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(js)
	zw.Close()
	site := fstest.MapFS{
		"app.js":    {Data: js},
		"app.js.gz": {Data: gz.Bytes()},
	}
	h := precompressed.FileServer(site, precompressed.Config{})

	for _, accept := range []string{"gzip, br", ""} {
		r := httptest.NewRequest("GET", "/app.js", nil)
		r.Header.Set("Accept-Encoding", accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("Accept-Encoding %q: %d, Content-Encoding %q, Content-Type %s, Vary %s, sidecar bytes: %t\n",
			accept, w.Code, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Type"),
			w.Header().Get("Vary"), bytes.Equal(w.Body.Bytes(), gz.Bytes()))
	}
	// Output:
	// Accept-Encoding "gzip, br": 200, Content-Encoding "gzip", Content-Type text/javascript; charset=utf-8, Vary Accept-Encoding, sidecar bytes: true
	// Accept-Encoding "": 200, Content-Encoding "", Content-Type text/javascript; charset=utf-8, Vary Accept-Encoding, sidecar bytes: false
}

// Among the codings a client weighs equally, the smallest sidecar wins: a
// browser sending "gzip, deflate, br, zstd" gets the gzip sidecar here,
// the only one smaller than the .zst beside it (stand-ins for files a
// build wrote). Config.PreferOrder gives ties to the Sidecars order
// instead, zstd first.
func ExampleConfig_preferOrder() {
	site := fstest.MapFS{
		"app.js":     {Data: []byte(strings.Repeat("console.log('hi');\n", 100))},
		"app.js.zst": {Data: make([]byte, 120)},
		"app.js.gz":  {Data: make([]byte, 90)},
	}
	for _, cfg := range []precompressed.Config{{}, {PreferOrder: true}} {
		r := httptest.NewRequest("GET", "/app.js", nil)
		r.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		w := httptest.NewRecorder()
		precompressed.FileServer(site, cfg).ServeHTTP(w, r)
		fmt.Printf("PreferOrder %t: Content-Encoding %s, %s bytes\n", cfg.PreferOrder, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Length"))
	}
	// Output:
	// PreferOrder false: Content-Encoding gzip, 90 bytes
	// PreferOrder true: Content-Encoding zstd, 120 bytes
}

// Serving an operating-system directory under /static/, confined with
// os.Root so that no symbolic link inside it leads out.
func ExampleFileServerRoot() {
	root, err := os.OpenRoot("public")
	if err != nil {
		log.Fatal(err)
	}
	defer root.Close()
	http.Handle("/static/", http.StripPrefix("/static", precompressed.FileServerRoot(root, precompressed.Config{})))
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", nil))
}

// Writing sidecars and a manifest for a directory as a build step, then
// serving the directory with the manifest.
//
// For a site embedded with embed.FS the generator runs as a go:generate
// line beside the embed directive, so that go generate refreshes the
// sidecars and the manifest before go build embeds them:
//
//	//go:generate go run github.com/squeezehttp/squeeze/precompressed/cmd/precompress -q -manifest precompress.json site
//	//go:embed site
//	var site embed.FS
//
// and the server reads the manifest from the embedded tree, trusting it:
//
//	fsys, _ := fs.Sub(site, "site")
//	m, err := precompressed.ReadManifest(fsys, precompressed.DefaultManifest)
//	h := precompressed.FileServer(fsys, precompressed.Config{Manifest: m})
func ExampleGenerate() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	js := []byte(strings.Repeat("console.log('hi');\n", 100))
	if err := os.WriteFile(filepath.Join(dir, "app.js"), js, 0o644); err != nil {
		log.Fatal(err)
	}

	rep, err := precompressed.Generate(context.Background(), dir, precompressed.GenerateConfig{Manifest: precompressed.DefaultManifest})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d sidecars written for %d file\n", rep.Written, rep.Compressible)

	root, err := os.OpenRoot(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer root.Close()
	m, err := precompressed.ReadManifest(root.FS(), precompressed.DefaultManifest)
	if err != nil {
		log.Fatal(err)
	}
	h := precompressed.FileServerRoot(root, precompressed.Config{Manifest: m})
	r := httptest.NewRequest("GET", "/app.js", nil)
	r.Header.Set("Accept-Encoding", "br")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("Content-Encoding"))
	// Output:
	// 3 sidecars written for 1 file
	// 200 br
}

// Reading the manifest of a directory on disk, through the same os.Root
// the server is confined to, so that the manifest and the files it vouches
// for come from one tree. A sidecar edited after Generate ran is then
// ignored, and the manifest itself is never served.
func ExampleReadManifest() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	js := []byte(strings.Repeat("console.log('hi');\n", 100))
	if err := os.WriteFile(filepath.Join(dir, "app.js"), js, 0o644); err != nil {
		log.Fatal(err)
	}
	cfg := precompressed.GenerateConfig{Manifest: precompressed.DefaultManifest}
	if _, err := precompressed.Generate(context.Background(), dir, cfg); err != nil {
		log.Fatal(err)
	}
	// After the build, something rewrites the brotli sidecar.
	if err := os.WriteFile(filepath.Join(dir, "app.js.br"), []byte("not what Generate wrote"), 0o644); err != nil {
		log.Fatal(err)
	}

	root, err := os.OpenRoot(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer root.Close()
	m, err := precompressed.ReadManifest(root.FS(), precompressed.DefaultManifest)
	if err != nil {
		log.Fatal(err)
	}
	h := precompressed.FileServerRoot(root, precompressed.Config{Manifest: m})

	for _, target := range []string{"/app.js", "/" + precompressed.DefaultManifest} {
		r := httptest.NewRequest("GET", target, nil)
		r.Header.Set("Accept-Encoding", "br, gzip;q=0.5")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Printf("%s: %d, Content-Encoding %q\n", target, w.Code, w.Header().Get("Content-Encoding"))
	}
	// Output:
	// /app.js: 200, Content-Encoding "gzip"
	// /precompress.json: 404, Content-Encoding ""
}
