package precompressed

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
)

// DefaultManifest is the usual GenerateConfig.Manifest, the name of the
// manifest at the top of the tree. It starts with neither "." nor "_" so
// that a //go:embed of the directory includes it. FileServer never serves
// a file of this name, in any directory, nor a sidecar of one, whether or
// not Config.Manifest is set; a manifest under another name is hidden
// when it is the Config.Manifest. Generate makes no sidecars for it.
const DefaultManifest = "precompress.json"

// manifestVersion is the format written; ReadManifest refuses others.
const manifestVersion = 1

// Manifest is what Generate recorded about a tree: for every original, its
// size and SHA-256, and the same for each sidecar written beside it. A
// FileServer given one (Config.Manifest) serves only the sidecars it
// vouches for and takes ETags from it. Read it with ReadManifest.
type Manifest struct {
	name  string // where it was read from, hidden by FileServer
	files map[string]manifestFile
}

// manifestJSON is the file's format: deterministic (sorted keys, no
// timestamps) so that a committed or embedded manifest changes only when
// the files do.
type manifestJSON struct {
	Version int                     `json:"version"`
	Files   map[string]manifestFile `json:"files"` // by slash-separated name
}

// manifestFile describes one original and its sidecars.
type manifestFile struct {
	Size     int64                   `json:"size"`
	SHA256   string                  `json:"sha256"`             // hex
	Sidecars map[string]manifestBlob `json:"sidecars,omitempty"` // by extension, ".br"
}

// manifestBlob describes one sidecar.
type manifestBlob struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ReadManifest reads the manifest that Generate wrote as name in fsys
// (DefaultManifest unless configured otherwise). fsys is the tree the
// FileServer serves: root.FS() of the os.Root given to FileServerRoot for
// a directory on disk, or the embed.FS (after fs.Sub) for an embedded one.
func ReadManifest(fsys fs.FS, name string) (*Manifest, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("precompressed: reading manifest: %w", err)
	}
	m, err := parseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("precompressed: manifest %s: %w", name, err)
	}
	m.name = name
	return m, nil
}

func parseManifest(b []byte) (*Manifest, error) {
	var mj manifestJSON
	if err := json.Unmarshal(b, &mj); err != nil {
		return nil, err
	}
	if mj.Version != manifestVersion {
		return nil, fmt.Errorf("version %d, want %d", mj.Version, manifestVersion)
	}
	for name, f := range mj.Files {
		if !fs.ValidPath(name) || !validSum(f.SHA256) {
			return nil, fmt.Errorf("bad entry %q", name)
		}
		for ext, sc := range f.Sidecars {
			if !validSum(sc.SHA256) {
				return nil, fmt.Errorf("bad sidecar %q of %q", ext, name)
			}
		}
	}
	if mj.Files == nil {
		mj.Files = map[string]manifestFile{}
	}
	return &Manifest{files: mj.Files}, nil
}

func validSum(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}

// marshal is the manifest's file content.
func (m *Manifest) marshal() ([]byte, error) {
	b, err := json.MarshalIndent(manifestJSON{Version: manifestVersion, Files: m.files}, "", "\t")
	return append(b, '\n'), err
}

// etagSum converts a manifest hash to the form ETags carry, the same as
// FileServer computes itself, so that ETags do not change with a manifest.
func etagSum(hexSum string) string {
	b, err := hex.DecodeString(hexSum)
	if err != nil || len(b) != 32 {
		return ""
	}
	return hashString(b)
}

// sidecar returns the manifest's record of the sidecar with extension ext
// of original, which must have size originalSize; ok is false if the
// manifest does not vouch for it.
func (m *Manifest) sidecar(original, ext string, originalSize int64) (orig manifestFile, sc manifestBlob, ok bool) {
	f, found := m.files[original]
	if !found {
		return f, sc, false
	}
	sc, found = f.Sidecars[ext]
	if !found || (originalSize >= 0 && f.Size != originalSize) {
		return f, sc, false
	}
	return f, sc, true
}
