package encoding

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
	ownzstd "github.com/squeezehttp/squeeze/internal/zstd"
)

// DESIGN "Levels that differ in the library differ in squeeze too": zstd's
// levels 1 and 3 are klauspost's SpeedFastest and SpeedDefault, which give
// different bytes, and with OwnSmallBodyEncoders the own encoder serves
// only levels 1 and 2 (SpeedFastest): from level 3 a body gets exactly the
// built-in codec's bytes.
func TestZstdLevelsOneAndThreeDiffer(t *testing.T) {
	t.Parallel()
	bodies, err := corpus.Bodies()
	if err != nil {
		t.Fatal(err)
	}
	own := OwnSmallBodyEncoders(Zstd()).(AppendEncoder)
	var e ownzstd.Encoder
	differ := 0
	for _, b := range bodies {
		out := map[int][]byte{}
		for _, level := range []int{1, 3, 5} {
			out[level], err = zstdBuiltin().AppendEncode(nil, b.Data, level)
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(out[1], out[3]) {
			differ++
		}
		for _, level := range []int{1, 2, 3, 4, 5, 6} {
			got, err := own.AppendEncode(nil, b.Data, level)
			if err != nil {
				t.Fatal(err)
			}
			checkDecodes(t, fmt.Sprintf("%s at %d", b.Name(), level), "zstd", got, b.Data)
			if want := ownZstd(level, len(b.Data)); bytes.Equal(got, e.Append(nil, b.Data)) != want {
				t.Errorf("%s at level %d: own encoder used %v, want %v", b.Name(), level, !want, want)
			}
			if plain := out[level]; plain != nil && level >= 3 && !bytes.Equal(got, plain) {
				t.Errorf("%s at level %d: OwnSmallBodyEncoders differs from Zstd", b.Name(), level)
			}
		}
	}
	// Tiny bodies may come out the same from both speeds.
	if differ < len(bodies)*3/4 {
		t.Errorf("levels 1 and 3 differ on %d of %d bodies", differ, len(bodies))
	}
}

// OwnSmallBodyEncoders switches the own encoders on only for the built-in
// codecs, each once, and leaves any other codec as it is.
func TestOwnSmallBodyEncodersOnlyForBuiltins(t *testing.T) {
	for _, c := range []Codec{Gzip(), Deflate(), Zstd(), Brotli()} {
		own := OwnSmallBodyEncoders(c)
		if own == c || own.Name() != c.Name() {
			t.Errorf("%s: got %T %q, want another codec of that name", c.Name(), own, own.Name())
		}
		if OwnSmallBodyEncoders(c) != own {
			t.Errorf("%s: a second call returned another codec", c.Name())
		}
		if OwnSmallBodyEncoders(own) != own {
			t.Errorf("%s: the own codec is not returned as it is", c.Name())
		}
	}
	var other Codec = &recordingCodec{}
	if OwnSmallBodyEncoders(other) != other {
		t.Error("a user's codec was not returned as it is")
	}
}
