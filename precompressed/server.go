package precompressed

import (
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// server is the handler FileServer returns.
type server struct {
	fsys         fs.FS
	sidecars     []Sidecar
	preferOrder  bool
	serveStale   bool
	hideSidecars bool
	dotfiles     bool
	hide         func(string) bool
	interval     time.Duration
	manifest     *Manifest // nil without one

	fallback        []encoding.Codec
	fallbackNames   []string
	cache           *contentcache.Cache // nil when on-the-fly compression is off
	minSize         int64
	maxSize         int64
	recompressAfter int // responses before a file is recompressed; 0: never
	recompressor    recompressor

	resources *statCache[*resource]
	files     *statCache[*heldFile] // nil when Config.FileCacheBytes is negative

	dict *dictionaryServer // nil without Config.Dictionary
}

// FileServer returns a handler that serves the files of fsys, choosing for
// each request among the file and its precompressed sidecars (see Config)
// by the request's Accept-Encoding (RFC 9110 §12.5.3). It answers GET and
// HEAD only; everything else gets 405.
//
// The request's URL path names the file, as with http.FileServerFS: wrap the
// handler in http.StripPrefix to serve it under a prefix. A path ending in a
// slash names the directory's index.html; there are no directory listings.
//
// os.DirFS follows symbolic links out of its directory; use FileServerRoot
// to serve an operating-system directory.
//
// FileServer panics, with a message naming the field, when fsys is nil or
// cfg asks for something that cannot work (see Config): a
// misconfiguration shows when the server is built, never on a request.
func FileServer(fsys fs.FS, cfg Config) http.Handler {
	if fsys == nil {
		panic("precompressed: FileServer: the fs.FS is nil")
	}
	if err := cfg.check(); err != nil {
		panic(err)
	}
	s := &server{
		fsys:         fsys,
		sidecars:     cfg.sidecars(),
		preferOrder:  cfg.PreferOrder,
		serveStale:   cfg.ServeStale,
		hideSidecars: cfg.HideSidecars,
		dotfiles:     cfg.ServeDotfiles,
		hide:         cfg.Hide,
		interval:     cfg.checkInterval(),
		manifest:     cfg.Manifest,
		minSize:      cfg.minSize(),
	}
	statBudget := cfg.statCacheBytes()
	if cfg.Dictionary != nil {
		// Delta names come from clients' hashes: they get their own share,
		// so that they cannot push the files out.
		s.dict = newDictionaryServer(cfg.Dictionary, statBudget/8)
		statBudget -= statBudget / 8
	}
	s.resources = newStatCache[*resource](statBudget)
	if budget := cfg.fileCacheBytes(); budget > 0 {
		s.files = newStatCache[*heldFile](budget)
	}
	switch budget := cfg.cacheBytes(); {
	case cfg.Cache != nil:
		s.cache = contentcache.Hook(cfg.Cache)
	case budget > 0:
		s.cache = contentcache.New(budget)
	}
	if s.cache != nil {
		s.fallback = cfg.fallback()
		for _, c := range s.fallback {
			s.fallbackNames = append(s.fallbackNames, c.Name())
		}
		s.maxSize = s.cache.Budget() / 4
		s.recompressAfter = cfg.recompressAfter()
		s.recompressor.s = s
	}
	return s
}

// FileServerRoot is FileServer for an operating-system directory opened with
// os.OpenRoot: no name, symbolic link or ".." can reach outside it. The
// caller keeps root open for as long as the handler serves. Like
// FileServer, it panics on a nil root or a malformed cfg.
func FileServerRoot(root *os.Root, cfg Config) http.Handler {
	if root == nil {
		panic("precompressed: FileServerRoot: the *os.Root is nil")
	}
	return FileServer(root.FS(), cfg)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// RFC 9110 §15.5.6: a 405 lists the methods the resource supports.
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	upath := r.URL.Path
	if !strings.HasPrefix(upath, "/") {
		upath = "/" + upath
	}
	name, ok := fileName(upath)
	if !ok {
		http.Error(w, "400 bad request: invalid path", http.StatusBadRequest)
		return
	}
	if s.hidden(name) {
		http.NotFound(w, r)
		return
	}
	if strings.HasSuffix(upath, "/index.html") {
		// The directory is the canonical name of its index, as with
		// http.FileServer, so that caches hold one copy.
		localRedirect(w, r, "./")
		return
	}
	res := s.lookup(name)
	switch {
	case res.kind == kindNone:
		http.NotFound(w, r)
	case res.kind == kindDir && !strings.HasSuffix(upath, "/"):
		localRedirect(w, r, path.Base(upath)+"/")
	case res.kind == kindDir:
		index := path.Join(name, "index.html")
		if s.hidden(index) {
			http.NotFound(w, r)
			return
		}
		res = s.lookup(index)
		if res.kind != kindFile {
			http.NotFound(w, r)
			return
		}
		s.serveWithDictionary(w, r, res)
	case strings.HasSuffix(upath, "/"):
		localRedirect(w, r, "../"+path.Base(name))
	default:
		s.serveWithDictionary(w, r, res)
	}
}

// fileName turns a rooted URL path into an fs.FS name, reporting false for a
// path that tries to climb out with ".." (already decoded from %2e%2e by
// net/url), or that holds a backslash or NUL some file systems would
// interpret.
func fileName(upath string) (string, bool) {
	if strings.ContainsAny(upath, "\\\x00") {
		return "", false
	}
	for elem := range strings.SplitSeq(upath, "/") {
		if elem == ".." {
			return "", false
		}
	}
	name := strings.TrimPrefix(path.Clean(upath), "/")
	if name == "" {
		name = "."
	}
	return name, fs.ValidPath(name)
}

// hidden reports whether name must answer 404 whether or not it exists.
func (s *server) hidden(name string) bool {
	if !s.dotfiles && name != "." {
		for elem := range strings.SplitSeq(name, "/") {
			if strings.HasPrefix(elem, ".") {
				return true
			}
		}
	}
	if s.isManifest(name) {
		return true
	}
	if s.hideSidecars && (s.sidecarOf(name) != nil || deltaOriginal(name) != "") {
		return true
	}
	return s.hide != nil && s.hide(name)
}

// isManifest reports whether name is a manifest, or a sidecar or delta of
// one. A manifest lists every file with its hash, which is nobody's
// business, and it is never served, loaded or not: any file named
// DefaultManifest counts, at any depth, because the tree served may hold
// the one Generate wrote for a part of it.
func (s *server) isManifest(name string) bool {
	if orig := deltaOriginal(name); orig != "" {
		name = orig
	} else if sc := s.sidecarOf(name); sc != nil {
		name = strings.TrimSuffix(name, sc.Ext)
	}
	return path.Base(name) == DefaultManifest || s.manifest != nil && name == s.manifest.name
}

// sidecarOf returns the sidecar whose extension name ends with, or nil.
func (s *server) sidecarOf(name string) *Sidecar {
	for i := range s.sidecars {
		if strings.HasSuffix(name, s.sidecars[i].Ext) && len(name) > len(s.sidecars[i].Ext) {
			return &s.sidecars[i]
		}
	}
	return nil
}

// localRedirect answers 301 to target, relative to the request's path so
// that it survives http.StripPrefix, keeping the query.
func localRedirect(w http.ResponseWriter, r *http.Request, target string) {
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", target)
	w.WriteHeader(http.StatusMovedPermanently)
}
