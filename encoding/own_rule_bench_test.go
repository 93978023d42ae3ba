package encoding

import (
	"context"
	"fmt"
	"io"
	"math"
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
// own encoder and with the library at that level, every tile of the
// corpus (corpus.Tiles) of the class's largest size in turn, so that no
// body comes back before all the others have been sent, as in a service
// whose responses differ; the two take turns a pass over the tiles at a
// time (each going first every other time) so that a busy machine slows
// both alike. It reports each one's mean time per response (own-ns,
// library-ns) and the rule's ratio (own/library): per kind of body, the
// own encoder's time over the library's, then the geometric mean over the
// kinds, as the byte half weighs them; worst-kind is the highest kind's
// ratio. ownTimeMaxBodies (own.go) states the bound a class must keep in
// every run and records the outcome; compare runs with benchstat.
func BenchmarkOwnAgainstLibrary(b *testing.B) {
	for _, c := range []struct {
		codec Codec
		level int
	}{{Gzip(), 5}, {Gzip(), 6}, {Gzip(), 7}, {Gzip(), 8}, {Gzip(), 9},
		{Brotli(), 3}, {Brotli(), 4}, {Brotli(), 5}, {Brotli(), 6}, {Zstd(), 1}, {Zstd(), 3}} {
		library := LibraryEncoders(c.codec)
		for _, size := range ownSizeClasses {
			bodies, err := corpus.Tiles(size)
			if err != nil {
				b.Fatal(err)
			}
			var set [][]byte
			var kinds []int // per body of set, its kind's index
			kindIndex := map[string]int{}
			for _, body := range bodies {
				k, ok := kindIndex[body.Kind]
				if !ok {
					k = len(kindIndex)
					kindIndex[body.Kind] = k
				}
				set, kinds = append(set, body.Data), append(kinds, k)
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
				// spent[kind][0] is the own encoder's time, [1] the library's.
				spent := make([][2]time.Duration, len(kindIndex))
				w := &discardWriter{h: http.Header{}}
				base := serveRequest("GET", "Accept-Encoding: "+c.codec.Name())
				requests := make([]*http.Request, len(set))
				for i := range set {
					requests[i] = base.WithContext(context.WithValue(base.Context(), bodyIndex{}, i))
				}
				// Each iteration serves the whole set with one encoder, then
				// with the other, the own encoder first every other time:
				// each runs warm as in a service that uses it alone, and
				// noise lasting longer than a pass slows both alike.
				passes := 0
				for b.Loop() {
					for j := range 2 {
						k := j ^ passes&1
						for body, r := range requests {
							start := time.Now()
							clear(w.h)
							handlers[k].ServeHTTP(w, r)
							spent[kinds[body]][k] += time.Since(start)
						}
					}
					passes++
				}
				responses := float64(passes * len(set)) // per encoder
				var own, lib time.Duration
				logSum, worst := 0.0, 0.0
				for _, s := range spent {
					own, lib = own+s[0], lib+s[1]
					r := float64(s[0]) / float64(s[1])
					logSum, worst = logSum+math.Log(r), max(worst, r)
				}
				b.ReportMetric(float64(own.Nanoseconds())/responses, "own-ns")
				b.ReportMetric(float64(lib.Nanoseconds())/responses, "library-ns")
				b.ReportMetric(math.Exp(logSum/float64(len(spent))), "own/library")
				b.ReportMetric(worst, "worst-kind")
			})
		}
	}
}

// bodyIndex is the context key of the corpus body a benchmark request asks
// for.
type bodyIndex struct{}
