// Command static serves a site embedded in the binary from sidecars made at
// build time: go generate writes site/*.zst, *.br, *.gz and a manifest of
// their hashes, go:embed takes them in, and precompressed.FileServer sends
// each client the smallest variant it accepts, compressed once at the best
// levels rather than on every request.
package main

import (
	"embed"
	"io/fs"
	"log"
	"net/http"

	"github.com/squeezehttp/squeeze/precompressed"
)

// Run go generate after editing a file under site/, and commit the result,
// so that go build needs nothing else.
//
//go:generate go run github.com/squeezehttp/squeeze/precompressed/cmd/precompress -q -manifest precompress.json site
//go:embed site
var site embed.FS

// newHandler serves the embedded site.
func newHandler() (http.Handler, error) {
	fsys, err := fs.Sub(site, "site")
	if err != nil {
		return nil, err
	}
	// embed.FS cannot change after the build, so FileServer trusts the
	// manifest as it is: ETags come from its hashes and nothing is hashed
	// at start-up.
	m, err := precompressed.ReadManifest(fsys, precompressed.DefaultManifest)
	if err != nil {
		return nil, err
	}
	return precompressed.FileServer(fsys, precompressed.Config{Manifest: m}), nil
}

func main() {
	h, err := newHandler()
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
