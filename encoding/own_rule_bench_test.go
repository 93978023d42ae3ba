package encoding

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/squeezehttp/squeeze/internal/corpus"
)

// ownOnly is a built-in codec whose one-shot bodies all go to the own
// encoder, whatever the rule says: what BenchmarkOwnAgainstLibrary times
// against the library.
type ownOnly struct {
	library Codec // streams, names and levels
}

func (o ownOnly) Name() string                { return o.library.Name() }
func (o ownOnly) Levels() (min, max, def int) { return o.library.Levels() }
func (o ownOnly) NewWriter(w io.Writer, level int) (Writer, error) {
	return o.library.NewWriter(w, level)
}

// AppendEncode encodes src with the own encoder of the codec's coding.
func (o ownOnly) AppendEncode(dst, src []byte, level int) ([]byte, error) {
	return appendOwnFor(dst, o.library.Name(), src, level), nil
}

// BenchmarkOwnAgainstLibrary gives the time half of the rule of own.go: per
// coding, level and size class, responses through the middleware with the
// own encoder and with the library at that level, every corpus cut of the
// class's largest size in turn, the two interleaved response by response so
// that a busy machine slows both alike. It reports each one's time per
// response (own-ns, library-ns) and their ratio (own/library): the own
// encoder serves a class where the ratio is at most 0.67 (ownTimeMaxBodies
// records the outcome; compare runs with benchstat).
func BenchmarkOwnAgainstLibrary(b *testing.B) {
	bodies, err := corpus.Bodies()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		codec Codec
		level int
	}{{Gzip(), 5}, {Gzip(), 6}, {Gzip(), 7}, {Gzip(), 8}, {Gzip(), 9},
		{Brotli(), 3}, {Brotli(), 4}, {Brotli(), 5}, {Brotli(), 6}, {Zstd(), 1}, {Zstd(), 3}} {
		library := LibraryEncoders(c.codec)
		for _, size := range ownSizeClasses {
			var set [][]byte
			for _, body := range bodies {
				if len(body.Data) == size {
					set = append(set, body.Data)
				}
			}
			var handlers [2]http.Handler
			for k, codec := range []Codec{ownOnly{library}, library} {
				m := mustNew(b, Config{Codings: []Coding{{Codec: codec, Level: c.level}}})
				handlers[k] = m.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header()["Content-Type"] = contentTypeJSON
					w.Write(set[r.Context().Value(bodyIndex{}).(int)])
				}))
			}
			b.Run(fmt.Sprintf("%s-%d/%dK", c.codec.Name(), c.level, size>>10), func(b *testing.B) {
				var spent [2]time.Duration
				w := &discardWriter{h: http.Header{}}
				base := serveRequest("GET", "Accept-Encoding: "+c.codec.Name())
				requests := make([]*http.Request, len(set))
				for i := range set {
					requests[i] = base.WithContext(context.WithValue(base.Context(), bodyIndex{}, i))
				}
				i := 0
				for b.Loop() {
					r := requests[i%len(set)]
					i++
					for k, h := range handlers {
						start := time.Now()
						clear(w.h)
						h.ServeHTTP(w, r)
						spent[k] += time.Since(start)
					}
				}
				b.ReportMetric(float64(spent[0].Nanoseconds())/float64(i), "own-ns")
				b.ReportMetric(float64(spent[1].Nanoseconds())/float64(i), "library-ns")
				b.ReportMetric(float64(spent[0])/float64(spent[1]), "own/library")
			})
		}
	}
}

// bodyIndex is the context key of the corpus body a benchmark request asks
// for.
type bodyIndex struct{}
