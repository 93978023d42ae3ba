package dictionary

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/squeezehttp/squeeze/internal/sfv"
)

// FuzzAvailableDictionary parses arbitrary Available-Dictionary and
// Dictionary-ID values: never a panic, a hash only from a 32-byte Byte
// Sequence, and one that serializes back to a value naming the same hash.
func FuzzAvailableDictionary(f *testing.F) {
	f.Add(":pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=:", `"/v1/main.js 33a64df5"`)
	f.Add(":pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4:", `"a\"b"`)
	f.Add(":aGVsbG8=:;p=1", "token")
	f.Add("  :AAAA:  ", `"`)
	f.Fuzz(func(t *testing.T, available, id string) {
		h := http.Header{"Available-Dictionary": {available}, "Dictionary-Id": {id}}
		if hash, ok := Available(h); ok {
			v, err := sfv.SerializeItem(sfv.Item{Kind: sfv.Bytes, Bytes: hash[:]})
			if err != nil {
				t.Fatalf("hash from %q does not serialize: %v", available, err)
			}
			again, ok := Available(http.Header{"Available-Dictionary": {v}})
			if !ok || !bytes.Equal(again[:], hash[:]) {
				t.Fatalf("%q gave hash %x; its serialization %q gives %x, %v", available, hash, v, again, ok)
			}
		}
		if s, ok := ID(h); ok && len(s) > maxID {
			t.Fatalf("Dictionary-ID %q gave an id of %d characters", id, len(s))
		}
	})
}
