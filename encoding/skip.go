package encoding

import "strconv"

// Skip says why the middleware sent a response uncompressed: the first rule
// that ruled compression out, in the order the middleware checks them.
// Stats.Skip carries it to OnResponse.
type Skip uint8

const (
	// SkipNone: the response was compressed, or there is nothing to say
	// (the encoder could not be had, and identity went out instead).
	SkipNone Skip = iota
	// SkipTooSmall: the body was shorter than Config.MinSize, or empty
	// (a handler that flushed first started a stream, which has its
	// coding: see EverySize).
	SkipTooSmall
	// SkipType: Config.Types refused the Content-Type, the handler's or
	// the one sniffed from the body.
	SkipType
	// SkipEncoded: the handler set a Content-Encoding of its own.
	SkipEncoded
	// SkipNoTransform: Cache-Control: no-transform forbids changing the
	// content (RFC 9111 §5.2.2.6, §5.2.1.6).
	SkipNoTransform
	// SkipStatus: a status without a body to code: 204, 205, 304, or the
	// 304 or 412 that the middleware answered a conditional request with
	// (Stats.Conditional).
	SkipStatus
	// SkipHead: a HEAD request whose handler wrote no body and set no
	// Content-Length, so that what its GET gets is not known. Other HEADs
	// get the header, and the Stats, of their GET (RFC 9110 §9.3.2), with
	// BytesOut 0.
	SkipHead
	// SkipNotAccepted: the client accepts nothing better than identity,
	// or sent no Accept-Encoding at all.
	SkipNotAccepted
	// SkipRange: a 206 Partial Content or a Content-Range, a range of the
	// identity bytes (RFC 9110 §14.4).
	SkipRange
	// SkipUpgrade: a 101 Switching Protocols, or a request for a tunnel (an
	// Upgrade such as WebSocket, or a CONNECT) that the handler answered
	// without taking the connection.
	SkipUpgrade
	// SkipBypassed: the handler called Bypass.
	SkipBypassed
)

var skipNames = [...]string{
	SkipNone:        "",
	SkipTooSmall:    "too small",
	SkipType:        "type not compressible",
	SkipEncoded:     "already encoded",
	SkipNoTransform: "no-transform",
	SkipStatus:      "status",
	SkipHead:        "HEAD",
	SkipNotAccepted: "not accepted",
	SkipRange:       "range",
	SkipUpgrade:     "upgrade",
	SkipBypassed:    "bypassed",
}

// String returns a short lower-case phrase for s, such as "too small", or ""
// for SkipNone, fit for a metric label or a log field.
func (s Skip) String() string {
	if int(s) < len(skipNames) {
		return skipNames[s]
	}
	return "Skip(" + strconv.Itoa(int(s)) + ")"
}
