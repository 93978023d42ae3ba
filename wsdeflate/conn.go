package wsdeflate

import (
	"bufio"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// MessageType is the type of a data message (RFC 6455 §5.6).
type MessageType int

const (
	// MessageText is a UTF-8 text message; Read validates it.
	MessageText MessageType = MessageType(opText)
	// MessageBinary is a binary message.
	MessageBinary MessageType = MessageType(opBinary)
)

// DefaultReadLimit is the largest message Read accepts, after
// decompression, unless the options or SetReadLimit say otherwise.
const DefaultReadLimit = 1 << 20

// DefaultIdleRelease is how long a connection goes without a message before
// it releases its live compressor and decompressor to the shared pools
// (see the package documentation for the memory this saves). Re-acquiring
// them costs about 36 µs, so a second keeps that cost off busy connections.
const DefaultIdleRelease = time.Second

// compressThreshold is the smallest message Write compresses: klauspost's
// encoder stores shorter messages without finding matches, so compressing
// them only adds the 1-byte block overhead and the CPU.
const compressThreshold = 128

// A Conn is a WebSocket connection (RFC 6455), with permessage-deflate
// (RFC 7692) when it was negotiated. One goroutine may Read while any
// number Write, Ping and Close. It starts no goroutine of its own: pings
// are answered and pongs noticed by Read, so an application that wants
// Ping or a prompt close handshake must keep a Read going.
type Conn struct {
	nc          *closeSignal  // the socket
	wwatch      *contextWatch // applies a writer's context to its frames
	br          *bufio.Reader
	bw          *bufio.Writer
	client      bool // masks what it sends; expects unmasked frames
	subprotocol string
	extensions  string // the negotiated Sec-WebSocket-Extensions value
	compressed  bool

	// Writing. msgMu is held for a whole data message and guards comp and
	// wbuf; wmu is held for one frame and guards bw, the frame buffers and
	// the socket's write deadline, so control frames (pongs, close) can go
	// out between the fragments of a streamed message (RFC 6455 §5.4). Both
	// are ctxMutexes so that a goroutine waiting behind a frame that a
	// stuck peer holds up can give up when its context or bound ends.
	msgMu     ctxMutex
	comp      *Compressor
	wbuf      []byte // compressed or masked payload
	wmu       ctxMutex
	hdrBuf    []byte
	ctlBuf    [maxControlPayload]byte
	closeSent atomic.Bool // set under wmu
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
	dmu           sync.Mutex // guards decomp against the idle release
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
	client      bool
	subprotocol string
	params      *Params // nil without compression
	readLimit   int64
	idleRelease time.Duration
}

func newConn(nc net.Conn, br *bufio.Reader, bw *bufio.Writer, cfg connConfig) *Conn {
	sock := &closeSignal{Conn: nc, done: make(chan struct{})}
	c := &Conn{
		nc:            sock,
		wwatch:        newContextWatch(sock.SetWriteDeadline),
		br:            br,
		bw:            bw,
		client:        cfg.client,
		subprotocol:   cfg.subprotocol,
		msgMu:         newCtxMutex(),
		wmu:           newCtxMutex(),
		readLock:      make(chan struct{}, 1),
		closeReceived: make(chan struct{}),
		pings:         map[uint32]chan struct{}{},
	}
	if cfg.readLimit <= 0 {
		cfg.readLimit = DefaultReadLimit
	}
	c.readLimit.Store(cfg.readLimit)
	if p := cfg.params; p != nil {
		c.compressed = true
		c.extensions = p.String()
		send, recv := p.Server(), p.Client()
		if cfg.client {
			send, recv = recv, send
		}
		c.comp = NewCompressor(send)
		c.decomp = NewDecompressor(recv, int(min(cfg.readLimit, maxIntValue)))
		c.idle.init(c, cfg.idleRelease)
	}
	return c
}

const maxIntValue = int64(^uint(0) >> 1)

// Subprotocol returns the subprotocol agreed in the handshake, or "".
func (c *Conn) Subprotocol() string { return c.subprotocol }

// Extensions returns the negotiated Sec-WebSocket-Extensions value, such as
// "permessage-deflate; client_max_window_bits=12", or "" without
// compression.
func (c *Conn) Extensions() string { return c.extensions }

// SetReadLimit sets the largest message Read accepts, counted after
// decompression; a larger one fails the connection with 1009
// (RFC 6455 §7.4.1). Call it between Reads.
func (c *Conn) SetReadLimit(n int64) {
	if n <= 0 {
		n = DefaultReadLimit
	}
	c.readLimit.Store(n)
}

// NetConn returns the underlying connection, for its addresses.
func (c *Conn) NetConn() net.Conn { return c.nc.Conn }
