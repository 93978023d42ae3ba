package dictionary

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/squeezehttp/squeeze/encoding"
)

// versionedScript returns build number version of a generated JavaScript
// application of about size bytes: the same modules in every build, with
// a few percent of them changed from one build to the next, as between two
// releases of a real bundle. Running it sets window.appVersion.
func versionedScript(version, size int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "(function(){\n\"use strict\";\nvar registry = {};\n")
	rng := rand.New(rand.NewPCG(7, 7))
	words := []string{"render", "state", "props", "element", "update", "queue", "schedule", "effect", "context", "reducer", "selector", "dispatch", "handler", "value", "index", "cache"}
	for i := 0; b.Len() < size; i++ {
		w1, w2, w3 := words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))]
		n := rng.IntN(1000)
		// About one module in 25 differs per build: changed constants and an
		// extra statement, where a release would touch a few functions.
		changed := rng.IntN(25) == 0
		if changed {
			n += version * 17
		}
		// Parameters get distinct suffixes: strict mode forbids duplicates.
		fmt.Fprintf(&b, "registry[%q] = function %s_%d(%sA, %sB) {\n", fmt.Sprintf("m%d", i), w1, i, w2, w3)
		fmt.Fprintf(&b, "  var %s = %sA && %sA.%s ? %sA.%s(%d) : %d;\n", w1, w2, w2, w3, w2, w3, n, n*3)
		if changed && version > 1 {
			fmt.Fprintf(&b, "  if (%s > %d) { %s = %s - %d; }\n", w1, n, w1, w1, version)
		}
		fmt.Fprintf(&b, "  return { %s: %s, %s: %q };\n};\n", w1, w1, w3, w2+"-"+w3)
	}
	fmt.Fprintf(&b, "window.appVersion = \"%d\";\n})();\n", version)
	return []byte(b.String())
}

// newMiddleware returns encoding's middleware with dictionaries as cfg
// configures them.
func newMiddleware(t testing.TB, cfg Config) *encoding.Middleware {
	t.Helper()
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := encoding.New(encoding.Config{Dictionaries: s})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
