package wsdeflate

import (
	"bufio"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// streamBufferSize is the size of the buffers a Conn over an HTTP/2 stream
// reads and writes frames through, as large as those net/http hands over
// with a hijacked HTTP/1.1 connection.
const streamBufferSize = 4 << 10

// checkExtendedConnect validates an Extended CONNECT (RFC 8441 §4–5) and
// returns the HTTP status to refuse it with. It carries no
// Sec-WebSocket-Key: RFC 8441 §5 drops the key and the accept hash, as it
// drops Upgrade and Connection.
func checkExtendedConnect(r *http.Request) (status int, err error) {
	// net/http puts the :protocol pseudo-header among the headers.
	switch proto := r.Header.Get(":protocol"); {
	case proto == "":
		return http.StatusBadRequest, errors.New("wsdeflate: CONNECT without :protocol is not a WebSocket handshake")
	case proto != "websocket":
		return http.StatusNotImplemented, fmt.Errorf("wsdeflate: CONNECT for :protocol %q, not websocket", proto)
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		// RFC 6455 §4.4 answers with the versions spoken; 426 means
		// nothing in HTTP/2, which has no Upgrade.
		return http.StatusBadRequest, fmt.Errorf("wsdeflate: unsupported Sec-WebSocket-Version %q", r.Header.Get("Sec-WebSocket-Version"))
	}
	return 0, nil
}

// acceptStream answers a checked Extended CONNECT with 200 (RFC 8441 §5)
// and returns the Conn that runs over its stream.
func acceptStream(w http.ResponseWriter, r *http.Request, ext string, cfg connConfig) (*Conn, error) {
	rc := http.NewResponseController(w)
	// The server's ReadTimeout and WriteTimeout armed timers on the stream
	// that would end it mid-connection; the Conn sets its own deadlines.
	// A ResponseWriter that cannot take deadlines cannot bound Close.
	if err := rc.SetReadDeadline(time.Time{}); err != nil {
		http.Error(w, "wsdeflate: cannot set deadlines on the stream", http.StatusInternalServerError)
		return nil, fmt.Errorf("wsdeflate: HTTP/2 stream: read deadline: %w", err)
	}
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		http.Error(w, "wsdeflate: cannot set deadlines on the stream", http.StatusInternalServerError)
		return nil, fmt.Errorf("wsdeflate: HTTP/2 stream: write deadline: %w", err)
	}
	h := w.Header()
	if cfg.subprotocol != "" {
		h.Set("Sec-WebSocket-Protocol", cfg.subprotocol)
	}
	if ext != "" {
		h.Set("Sec-WebSocket-Extensions", ext)
	}
	w.WriteHeader(http.StatusOK)
	// Nothing reaches the client before a flush.
	if err := rc.Flush(); err != nil {
		return nil, fmt.Errorf("wsdeflate: write handshake: %w", err)
	}
	s := newServerStream(w, r, rc)
	return newConn(s, bufio.NewReaderSize(s, streamBufferSize), bufio.NewWriterSize(s, streamBufferSize), cfg), nil
}
