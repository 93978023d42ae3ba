package interop

import (
	"context"
	"testing"
)

// Profile is a Chromium user-data directory kept across runs, so that what
// one page load stores (the HTTP cache, compression dictionaries) is there
// for the next.
type Profile struct {
	b   *Browser
	dir string
	// Flags are added to every run, such as
	// "--ignore-certificate-errors-spki-list=..." for a test CA.
	Flags []string
}

// Profile returns a profile in a new directory under t.TempDir().
func (b *Browser) Profile(t testing.TB) *Profile {
	t.Helper()
	return &Profile{b: b, dir: t.TempDir()}
}

// WaitDOM is Browser.WaitDOM in this profile: it loads url until the DOM
// contains want. Each load is a separate browser run sharing the profile.
func (p *Profile) WaitDOM(t testing.TB, url, want string) string {
	t.Helper()
	return waitDOM(t, url, want, func(ctx context.Context) (string, error) {
		return p.b.runProfile(ctx, p.dir, append(append([]string(nil), p.Flags...), "--dump-dom", url)...)
	})
}
