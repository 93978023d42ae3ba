package encoding

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/squeezehttp/squeeze/internal/corpus"
	ownzstd "github.com/squeezehttp/squeeze/internal/zstd"
)

// DESIGN "Levels that differ in the library differ in squeeze too": zstd's
// levels 1 and 3 are klauspost's SpeedFastest and SpeedDefault, which give
// different bytes; Zstd sends a body to the own encoder exactly where
// ownZstd says, and everywhere else sends LibraryEncoders(Zstd())'s bytes.
func TestZstdLevelsOneAndThreeDiffer(t *testing.T) {
	t.Parallel()
	bodies, err := corpus.Bodies()
	if err != nil {
		t.Fatal(err)
	}
	library := LibraryEncoders(Zstd()).(AppendEncoder)
	var e ownzstd.Encoder
	differ := 0
	for _, b := range bodies {
		out := map[int][]byte{}
		for _, level := range []int{1, 2, 3, 4, 5, 6} {
			out[level], err = library.AppendEncode(nil, b.Data, level)
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(out[1], out[3]) {
			differ++
		}
		for _, level := range []int{1, 2, 3, 4, 5, 6} {
			got, err := zstdBuiltin().AppendEncode(nil, b.Data, level)
			if err != nil {
				t.Fatal(err)
			}
			checkDecodes(t, fmt.Sprintf("%s at %d", b.Name(), level), "zstd", got, b.Data)
			own := ownZstd(level, len(b.Data))
			if want := e.Append(nil, b.Data); own && !bytes.Equal(got, want) {
				t.Errorf("%s at level %d: not the own encoder's bytes, which serve it", b.Name(), level)
			}
			if !own && !bytes.Equal(got, out[level]) {
				t.Errorf("%s at level %d: Zstd differs from LibraryEncoders(Zstd()), which serves it", b.Name(), level)
			}
		}
	}
	// Tiny bodies may come out the same from both speeds.
	if differ < len(bodies)*3/4 {
		t.Errorf("levels 1 and 3 differ on %d of %d bodies", differ, len(bodies))
	}
}

// LibraryEncoders switches the own encoders off only for the built-in
// codecs, each once, and leaves any other codec as it is.
func TestLibraryEncodersOnlyForBuiltins(t *testing.T) {
	for _, c := range []Codec{Gzip(), Deflate(), Zstd(), Brotli()} {
		lib := LibraryEncoders(c)
		if lib == c || lib.Name() != c.Name() {
			t.Errorf("%s: got %T %q, want another codec of that name", c.Name(), lib, lib.Name())
		}
		if LibraryEncoders(c) != lib {
			t.Errorf("%s: a second call returned another codec", c.Name())
		}
		if LibraryEncoders(lib) != lib {
			t.Errorf("%s: the library codec is not returned as it is", c.Name())
		}
	}
	var other Codec = &recordingCodec{}
	if LibraryEncoders(other) != other {
		t.Error("a user's codec was not returned as it is")
	}
}

// LibraryEncoders sends flushed streams to the library too: its codecs'
// NewStreamWriter leaves every level to NewWriter, where the built-in
// codecs' own stream encoders take their default levels.
func TestLibraryEncodersLeaveStreamsToTheLibrary(t *testing.T) {
	for _, c := range []Codec{Gzip(), Deflate(), Zstd(), Brotli()} {
		_, _, def := c.Levels()
		own, err := c.(Streamer).NewStreamWriter(io.Discard, def)
		if err != nil || own == nil {
			t.Errorf("%s: no own stream writer at the default level %d (%v)", c.Name(), def, err)
		}
		lo, hi, _ := c.Levels()
		for level := lo; level <= hi; level++ {
			w, err := LibraryEncoders(c).(Streamer).NewStreamWriter(io.Discard, level)
			if err != nil || w != nil {
				t.Errorf("LibraryEncoders(%s) at level %d: stream writer %T (%v), want none", c.Name(), level, w, err)
			}
		}
	}
}
