package precompressed

import (
	"bytes"
	"io"
	"net/http"
	"time"
)

// serveHeld sends body, bytes held in memory in coding ("" for identity),
// through http.ServeContent, which implements the conditional requests,
// Range and HEAD as for a file; Content-Encoding goes on a 200 or 206 only.
// A plain request gets the 200 ServeContent would send, written directly.
// The bytes reach the connection with one Write, without the copy through a
// fresh buffer that ServeContent's io.CopyN would make (see heldWriter).
func serveHeld(w http.ResponseWriter, r *http.Request, coding string, modTime time.Time, body []byte) {
	if plainRequest(r) {
		lastModified, length, enc := wholeHeader(coding, modTime, len(body))
		writeWhole(w, r, body, lastModified, length, enc)
		return
	}
	hr := &heldReader{b: body}
	hr.r.Reset(body)
	ew := &encodedWriter{ResponseWriter: w, coding: coding}
	http.ServeContent(ew, r, "", modTime, hr)
}

// heldReader is a bytes.Reader whose bytes encodedWriter.ReadFrom can see.
type heldReader struct {
	r bytes.Reader
	b []byte
}

func (h *heldReader) Read(p []byte) (int, error) { return h.r.Read(p) }

func (h *heldReader) Seek(off int64, whence int) (int64, error) { return h.r.Seek(off, whence) }

// writeHeld writes what src, the io.LimitReader that io.CopyN makes around
// a heldReader, would yield, straight from the held bytes: io.Copy would
// otherwise allocate and zero a buffer of up to 32 KiB per response to copy
// bytes already in memory. ok is false when src is not such a reader.
func writeHeld(w io.Writer, src io.Reader) (n int64, ok bool, err error) {
	lr, ok := src.(*io.LimitedReader)
	if !ok {
		return 0, false, nil
	}
	hr, ok := lr.R.(*heldReader)
	if !ok {
		return 0, false, nil
	}
	off := hr.r.Size() - int64(hr.r.Len())
	end := min(off+lr.N, int64(len(hr.b)))
	written, err := w.Write(hr.b[off:end])
	n = int64(written)
	lr.N -= n
	_, _ = hr.r.Seek(n, io.SeekCurrent)
	return n, true, err
}
