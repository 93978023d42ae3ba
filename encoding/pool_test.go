package encoding

import (
	"bytes"
	"io"
	"runtime"
	"testing"
	"weak"
)

// TestResetNilDropsDestination proves, for every built-in codec, that a
// Writer Reset(nil) after a stream no longer keeps the stream's destination
// alive: a weak pointer to it goes nil once the GC runs, while the Writer
// itself is still reachable.
func TestResetNilDropsDestination(t *testing.T) {
	for _, bc := range builtins {
		t.Run(bc.codec.Name(), func(t *testing.T) {
			_, _, def := bc.codec.Levels()
			dst := new(bytes.Buffer)
			ref := weak.Make(dst)
			wr, err := bc.codec.NewWriter(dst, def)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := wr.Write(jsonText(4 << 10)); err != nil {
				t.Fatal(err)
			}
			if err := wr.Flush(); err != nil {
				t.Fatal(err)
			}
			if err := wr.Close(); err != nil {
				t.Fatal(err)
			}
			wr.Reset(nil)
			dst = nil
			runtime.GC()
			runtime.GC()
			if ref.Value() != nil {
				t.Errorf("%s Writer still references its destination after Reset(nil)", bc.codec.Name())
			}
			runtime.KeepAlive(wr)
		})
	}
}

// recordingCodec is a Codec whose Writers record what they were Reset to.
type recordingCodec struct{ made int }

type recordingWriter struct {
	io.Writer
	resets []io.Writer
}

func (c *recordingCodec) Name() string                { return "x-recording" }
func (c *recordingCodec) Levels() (min, max, def int) { return 1, 1, 1 }
func (c *recordingCodec) NewWriter(w io.Writer, level int) (Writer, error) {
	c.made++
	return &recordingWriter{Writer: w}, nil
}
func (w *recordingWriter) Close() error       { return nil }
func (w *recordingWriter) Flush() error       { return nil }
func (w *recordingWriter) Reset(to io.Writer) { w.Writer = to; w.resets = append(w.resets, to) }

// TestPoolPutResetsToNil checks that put drops the destination before the
// Writer enters the pool, and that get reuses a pooled Writer by Reset.
func TestPoolPutResetsToNil(t *testing.T) {
	c := new(recordingCodec)
	p, err := newEncoderPool(c, 0)
	if err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	wr, err := p.get(&first)
	if err != nil {
		t.Fatal(err)
	}
	p.put(wr)
	rw := wr.(*recordingWriter)
	if len(rw.resets) != 1 || rw.resets[0] != nil {
		t.Fatalf("put Reset the Writer to %v, want one Reset(nil)", rw.resets)
	}
	// sync.Pool may drop items at any time (and does at random under -race),
	// so reuse is checked only when the pool gave the Writer back.
	var second bytes.Buffer
	again, err := p.get(&second)
	if err != nil {
		t.Fatal(err)
	}
	if again == wr && rw.Writer != &second {
		t.Fatalf("a reused Writer was not Reset to its new destination")
	}
	if again != wr && c.made != 2 {
		t.Fatalf("get made %d Writers for two streams", c.made)
	}
}

// TestOneShotWithoutAppendEncoderUsesPooledWriter checks that encode falls
// back to a pooled streaming Writer for a codec that has no one-shot path,
// and appends to dst.
func TestOneShotWithoutAppendEncoderUsesPooledWriter(t *testing.T) {
	p, err := newEncoderPool(new(recordingCodec), 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.encode([]byte("a"), []byte("bc"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "abc" {
		t.Fatalf("encode through a pooled Writer gave %q, want %q", out, "abc")
	}
}
