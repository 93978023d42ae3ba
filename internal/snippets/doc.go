// Package snippets holds the tests that keep the module's Markdown files
// (README.md, docs/ and any other .md outside testdata and nested modules)
// true to the code: every Go snippet type-checks against the module's
// packages, every name such as encoding.Config.Jitter in the text exists,
// so that a renamed or removed name cannot stay in the documentation, and
// each row of the README's table of defaults states what the code does.
//
// A snippet is a fenced block opened with ```go. It may be a whole file
// (it starts with a package clause), file-level declarations, statements,
// or declarations followed by statements. Each is checked with these
// imports, under their usual names:
//
//	context, embed, errors, fmt, io, io/fs, log, net/http, os, time,
//	and the module's encoding, encoding/dictionary, negotiate,
//	precompressed and wsdeflate
//
// and statements run inside a function that is given
//
//	w http.ResponseWriter, r *http.Request, mux *http.ServeMux,
//	addr string, ctx context.Context
//
// A snippet may leave an import or a variable unused, as examples do; any
// other error fails the test at the snippet's line in its file.
package snippets
