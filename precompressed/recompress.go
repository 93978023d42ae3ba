package precompressed

import (
	"sync"

	"github.com/squeezehttp/squeeze/encoding"
	"github.com/squeezehttp/squeeze/internal/contentcache"
)

// maxRecompressQueue bounds the files waiting to be re-made at the best
// level: a burst of misses beyond it recompresses only the first ones.
const maxRecompressQueue = 64

// recompressor re-makes cached entries at their codec's highest level, in
// the background and one at a time, swapping a result in when smaller.
// Its one goroutine runs only while there is work, so a server dropped
// with an empty queue leaves none behind.
type recompressor struct {
	s       *server
	mu      sync.Mutex
	queue   []recompressJob
	running bool
}

type recompressJob struct {
	e     *contentcache.Entry
	v     *variant
	codec encoding.Codec
}

// add queues e, made from v with codec, unless the queue is full.
func (r *recompressor) add(e *contentcache.Entry, v *variant, codec encoding.Codec) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.queue) >= maxRecompressQueue {
		return
	}
	r.queue = append(r.queue, recompressJob{e, v, codec})
	if !r.running {
		r.running = true
		go r.run()
	}
}

func (r *recompressor) run() {
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		job := r.queue[0]
		r.queue[0] = recompressJob{}
		r.queue = r.queue[1:]
		r.mu.Unlock()
		_, best, _ := job.codec.Levels()
		// The file is read again, and must still be the content the entry
		// is keyed by: the entry answers for that content to everyone who
		// shares the cache. The ETag changes with the bytes, as it must:
		// it is their hash.
		src, err := r.s.readSum(job.v, job.e.Key().Sum)
		if err != nil {
			continue
		}
		if body, err := r.s.compress(job.v, src, job.codec, best); err == nil && body != nil {
			r.s.cache.Replace(job.e, body)
		}
	}
}
