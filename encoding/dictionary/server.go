package dictionary

import (
	"errors"
	"net/http"

	"github.com/squeezehttp/squeeze/encoding"
)

// Config configures a Server.
type Config struct {
	// Store holds the dictionaries the server compresses with. Required.
	Store *Store

	// Level is the zstd level of dcz responses, 1..22. Default 3. Each
	// dictionary in use keeps its encoders (see Dictionary): megabytes at
	// levels 2..5, far more at 10 and above.
	Level int

	// Allow decides from the request and the response's header whether a
	// response may be compressed with a dictionary, which could reveal
	// secrets in it to a page that can measure its size (RFC 9842 §9.2).
	// Default: PublicResponse, only responses a shared cache could store.
	Allow func(r *http.Request, h http.Header) bool

	// Secure decides whether a request came over a secure context, the
	// only place RFC 9842 §8 lets dictionaries be used. Default:
	// SecureRequest, TLS or localhost; set it behind a proxy that
	// terminates TLS.
	Secure func(r *http.Request) bool
}

// Server is the server side of Compression Dictionary Transport for
// encoding's middleware: set as encoding.Config.Dictionaries, it gives a
// request whose Available-Dictionary names a dictionary in its Store the
// dcz coding with that dictionary, when the request came over a secure
// context (Config.Secure) and the response is one the requesting page may
// read (Readable) and Config.Allow lets mix with a dictionary. It is safe
// for concurrent use.
type Server struct {
	store  *Store
	level  int
	allow  func(*http.Request, http.Header) bool
	secure func(*http.Request) bool
}

var _ encoding.Dictionaries = (*Server)(nil)

// NewServer returns the Server cfg describes, or an error when cfg has no
// Store or a level outside 1..22.
func NewServer(cfg Config) (*Server, error) {
	s := &Server{store: cfg.Store, level: cfg.Level, allow: cfg.Allow, secure: cfg.Secure}
	if s.store == nil {
		return nil, errors.New("dictionary: Config.Store is nil")
	}
	if s.level == 0 {
		s.level = defaultLevel
	}
	if err := checkLevel(s.level); err != nil {
		return nil, err
	}
	if s.allow == nil {
		s.allow = PublicResponse
	}
	if s.secure == nil {
		s.secure = SecureRequest
	}
	return s, nil
}

// Lookup returns the dcz codec for the dictionary that r's
// Available-Dictionary names, at the Server's level, and the short form
// of its hash that goes into ETags; nil when r names none, names one the
// Store lacks, or did not come over a secure context (RFC 9842 §8).
func (s *Server) Lookup(r *http.Request) (encoding.Codec, string) {
	if _, ok := r.Header["Available-Dictionary"]; !ok || !s.secure(r) {
		return nil, ""
	}
	hash, ok := Available(r.Header)
	if !ok {
		return nil, ""
	}
	d := s.store.Lookup(hash)
	if d == nil {
		return nil, ""
	}
	return codec{d: d, level: s.level}, d.tag()
}

// Permit reports whether the response whose header is h may go out with
// the dictionary: only one the request's page may read (RFC 9842 §9.3.3)
// and that Config.Allow lets mix with a dictionary (§9.2).
func (s *Server) Permit(r *http.Request, h http.Header) bool {
	return Readable(r, h) && s.allow(r, h)
}
