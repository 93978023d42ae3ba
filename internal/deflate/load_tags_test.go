//go:build purego || nounsafe

package deflate

import "testing"

// With the purego or nounsafe build tag the match finders' loads are
// checked: one that would read past the body panics, even into the slice's
// spare capacity, instead of reading it.
func TestCheckedLoadsUnderPuregoAndNounsafe(t *testing.T) {
	b := make([]byte, 8, 64)
	for _, load := range []func(){
		func() { LoadFast64(b, 1) },
		func() { LoadFast32(b, 5) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("a load past the body's length did not panic")
				}
			}()
			load()
		}()
	}
}
