package wsdeflate

import (
	"bufio"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// MessageType is the type of a data message (RFC 6455 §5.6).
type MessageType int

// The values are the frames' opcodes (RFC 6455 §5.2).
const (
	// MessageText is a UTF-8 text message; Read validates it.
	MessageText MessageType = 1
	// MessageBinary is a binary message.
	MessageBinary MessageType = 2
)

// String returns "text" or "binary", fit for a log field.
func (t MessageType) String() string {
	switch t {
	case MessageText:
		return "text"
	case MessageBinary:
		return "binary"
	}
	return "MessageType(" + strconv.Itoa(int(t)) + ")"
}

// DefaultIdleRelease is how long a connection goes without a message before
// it releases its live compressor and decompressor to the shared pools and
// drops its message buffers (see the package documentation for the memory
// this saves). Re-acquiring the codec costs about as much as compressing a
// message, so a second keeps that cost off busy connections.
const DefaultIdleRelease = time.Second

// A Conn is a WebSocket connection (RFC 6455), with permessage-deflate
// (RFC 7692) when it was negotiated. One goroutine may Read while any
// number Write, Ping and Close. It starts no goroutine of its own: pings
// are answered and pongs noticed by Read, so an application that wants
// Ping or a prompt close handshake must keep a Read going.
type Conn struct {
	nc          *closeSignal  // the socket
	wwatch      *contextWatch // applies a writer's context to its frames
	rwatch      *contextWatch // applies Read's context to its reads; guarded by readLock
	br          *bufio.Reader
	bw          *bufio.Writer
	client      bool // masks what it sends; expects unmasked frames
	subprotocol string
	extensions  string // the negotiated Sec-WebSocket-Extensions value
	compressed  bool
	threshold   int // the smallest message Write compresses

	// Writing. msgMu is held for a whole data message and guards comp and
	// wbuf; wmu is held for one frame and guards bw, the frame buffers and
	// the socket's write deadline, so control frames (pongs, close) can go
	// out between the fragments of a streamed message (RFC 6455 §5.4). Both
	// are ctxMutexes so that a goroutine waiting behind a frame that a
	// stuck peer holds up can give up when its context or bound ends.
	msgMu     ctxMutex
	comp      *Compressor
	wbuf      []byte // a frame: room for its header, then its compressed or masked payload
	wmu       ctxMutex
	hdrBuf    []byte
	ctlBuf    [maxControlPayload]byte
	closeSent atomic.Bool // set under wmu
	// closeTimeout is Close's bound, closeHandshakeTimeout; tests of a
	// peer that never answers shorten it.
	closeTimeout time.Duration
	// closedByClose is set when Close closes the socket, so that a frame
	// it cut short reports why.
	closedByClose atomic.Bool

	// The pong owed for the latest ping (RFC 6455 §5.5.3 lets an endpoint
	// answer only the latest), sent by whoever next holds wmu: Read never
	// waits behind a data frame to answer a ping.
	pongMu      sync.Mutex
	pongPending atomic.Bool
	pongLen     int
	pongBuf     [maxControlPayload]byte

	// Reading: readLock is held by the one Read in progress (a channel so
	// that Close can wait for it with a timeout).
	readLock      chan struct{}
	dmu           sync.Mutex // guards decomp, rbuf and mbuf against the idle release
	decomp        *Decompressor
	readLimit     atomic.Int64
	readErr       error
	hbuf          [maxHeaderSize]byte
	rbuf          []byte // payload of the message being read
	mbuf          []byte // the decompressed message
	closeReceived chan struct{}

	pingMu sync.Mutex
	pings  map[uint32]chan struct{}

	idle idleRelease
}

// connConfig is what Accept and Dial agreed on.
type connConfig struct {
	connOptions // checked
	client      bool
	subprotocol string
	params      *Params // nil without compression
}

func newConn(nc net.Conn, br *bufio.Reader, bw *bufio.Writer, cfg connConfig) *Conn {
	sock := &closeSignal{Conn: nc, done: make(chan struct{})}
	c := &Conn{
		nc:            sock,
		wwatch:        newContextWatch(sock.SetWriteDeadline),
		rwatch:        newContextWatch(sock.SetReadDeadline),
		br:            br,
		bw:            bw,
		client:        cfg.client,
		subprotocol:   cfg.subprotocol,
		msgMu:         newCtxMutex(),
		wmu:           newCtxMutex(),
		readLock:      make(chan struct{}, 1),
		closeReceived: make(chan struct{}),
		pings:         map[uint32]chan struct{}{},
		closeTimeout:  closeHandshakeTimeout,
	}
	c.readLimit.Store(cfg.readLimit)
	c.threshold = cfg.threshold
	if p := cfg.params; p != nil {
		c.compressed = true
		c.extensions = p.String()
		send, recv := p.Server(), p.Client()
		if cfg.client {
			send, recv = recv, send
		}
		c.comp, _ = NewCompressor(send, cfg.level) // the level was checked
		c.decomp = NewDecompressor(recv, intLimit(cfg.readLimit))
	}
	c.idle.init(c, cfg.idleRelease)
	return c
}

// Subprotocol returns the subprotocol agreed in the handshake, or "".
func (c *Conn) Subprotocol() string { return c.subprotocol }

// Extensions returns the negotiated Sec-WebSocket-Extensions value, such as
// "permessage-deflate; client_max_window_bits=12", or "" without
// compression.
func (c *Conn) Extensions() string { return c.extensions }

// SetReadLimit sets the largest message Read accepts, counted after
// decompression; a larger one fails the connection with 1009
// (RFC 6455 §7.4.1). 0 means DefaultReadLimit; a negative value (or
// math.MaxInt64) means no limit beyond memory, as in coder/websocket.
// Call it between Reads.
func (c *Conn) SetReadLimit(n int64) {
	c.readLimit.Store(readLimitOrDefault(n))
}

// NetConn returns the underlying connection, for its addresses. Over
// HTTP/2 it is a net.Conn for the WebSocket's stream, not the TCP
// connection other streams share: its addresses are that connection's, and
// reading, writing or closing it act on the stream alone.
func (c *Conn) NetConn() net.Conn { return c.nc.Conn }
