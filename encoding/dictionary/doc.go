// Package dictionary implements the server side of Compression Dictionary
// Transport (RFC 9842): a browser that kept an earlier response, such as
// the previous build of a script, names it by its SHA-256 in
// Available-Dictionary, and gets the next one as a delta against it, often
// a few KB instead of tens.
//
// A response is marked as a dictionary for later requests with SetUseAs,
// which also gives it the freshness a browser requires. A Store holds the
// dictionaries a server compresses with, keyed by hash alone (never by the
// client's Dictionary-ID) and bounded by bytes. AppendDCZ and AppendDCB
// make dcz (zstd) and dcb (brotli) bodies for handlers of their own; a
// Server plugs the Store into encoding's middleware:
//
//	store := dictionary.NewStore(0)
//	store.Add(previousBuild)
//	dicts, err := dictionary.NewServer(dictionary.Config{Store: store})
//	mw, err := encoding.New(encoding.Config{Dictionaries: dicts})
//
// Dictionaries are used only as the RFC allows: when Accept-Encoding names
// dcz itself ("*" never stands for it, §6.1), over a secure context, TLS or
// localhost (§8, SecureRequest), for responses the requesting page may
// read: same-origin, or CORS-readable cross-origin (§9.3.3, Readable), and
// by default only for responses a shared cache could store, since a
// dictionary lets a page that can measure sizes probe secrets in a
// response (§9.2, PublicResponse; Config.Allow opts others in).
// precompressed serves deltas written ahead of time with the same rules.
//
// A Route is a dictionary for the responses of one route of a JSON API
// that a page calls again and again: built from samples of its responses,
// measured on samples held back and announced only where it beats br and
// zstd by RouteConfig.MinGain, served with its Use-As-Dictionary and
// linked from the page (rel="compression-dictionary", RFC 9842 §3), so
// that the browser fetches it at idle time and names it on every later
// call.
package dictionary
