package wsdeflate

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ExtensionName is the extension token of RFC 7692 §5.
const ExtensionName = "permessage-deflate"

// RFC 7692 §7 parameter names.
const (
	paramServerNoContextTakeover = "server_no_context_takeover"
	paramClientNoContextTakeover = "client_no_context_takeover"
	paramServerMaxWindowBits     = "server_max_window_bits"
	paramClientMaxWindowBits     = "client_max_window_bits"
)

// minZlibWindowBits is the smallest window we ask a peer for: zlib, which most
// peers use, silently compresses with 9 bits when asked for 8 (since 1.2.9),
// so a request for 8 would be broken by the very peers we most often meet.
const minZlibWindowBits = 9

// Config is one endpoint's policy for permessage-deflate. The zero value
// accepts every valid offer with context takeover in both directions and
// 32 KiB windows, which compresses best; see the fields for the memory each
// choice saves. Disabled is the one way to turn compression off.
type Config struct {
	// Disabled turns permessage-deflate off: Negotiate declines every offer
	// (and so Accept), Offer is empty (and so Dial offers nothing), and
	// ParseResponse fails on a response that accepts the extension anyway
	// (RFC 6455 §9.1: a server may only accept what was offered). A
	// connection without compression keeps no window and no codec.
	Disabled bool

	// ServerNoContextTakeover makes the server compress every message on its
	// own (RFC 7692 §7.1.1.1), so a server's idle compressor keeps no window.
	// A server adds it to its response; a client asks for it in its offer.
	ServerNoContextTakeover bool

	// ClientNoContextTakeover makes the client compress every message on its
	// own (RFC 7692 §7.1.1.2), so the server's decompressor keeps no window.
	ClientNoContextTakeover bool

	// ServerMaxWindowBits (8..15, 0 means 15) bounds the server's LZ77 window
	// to 2^bits bytes (RFC 7692 §7.1.2.1), and so the window each idle
	// connection keeps for that direction. A server answers an offer with the
	// smaller of this and the offered value; a client offers it when below 15.
	ServerMaxWindowBits int

	// ClientMaxWindowBits (9..15, 0 means 15) bounds the client's window
	// (RFC 7692 §7.1.2.2). A server can only ask for it when the client
	// offered client_max_window_bits; 8 is raised to 9 because zlib clients
	// treat 8 as 9. A client offers this value (or the bare parameter).
	ClientMaxWindowBits int
}

// Direction is what was agreed for the messages one endpoint compresses and
// the other decompresses.
type Direction struct {
	// ContextTakeover reports whether the LZ77 window carries over from one
	// message to the next (RFC 7692 §7.1.1).
	ContextTakeover bool
	// MaxWindowBits is the base-2 logarithm of the window, 8..15
	// (RFC 7692 §7.1.2).
	MaxWindowBits int
}

// Params is an agreed permessage-deflate configuration (RFC 7692 §7.1).
type Params struct {
	// ServerNoContextTakeover: the server compresses every message on its
	// own, and the client may forget its inflate window between messages.
	ServerNoContextTakeover bool
	// ClientNoContextTakeover is the same for client-to-server messages.
	ClientNoContextTakeover bool
	// ServerMaxWindowBits (8..15) bounds how far back the server's messages
	// refer, and so the window the client must keep.
	ServerMaxWindowBits int
	// ClientMaxWindowBits (8..15) is the same for the client's messages.
	ClientMaxWindowBits int
}

// Server returns the settings of server-to-client messages: the server's
// compressor and the client's decompressor use it.
func (p Params) Server() Direction {
	return Direction{ContextTakeover: !p.ServerNoContextTakeover, MaxWindowBits: p.ServerMaxWindowBits}
}

// Client returns the settings of client-to-server messages: the client's
// compressor and the server's decompressor use it.
func (p Params) Client() Direction {
	return Direction{ContextTakeover: !p.ClientNoContextTakeover, MaxWindowBits: p.ClientMaxWindowBits}
}

// String formats p as the Sec-WebSocket-Extensions value of a server
// response, leaving out what is the default.
func (p Params) String() string { return p.format(false) }

// format is String, but with serverBits it names server_max_window_bits
// even at 15: a server that accepts an offer of it must (RFC 7692
// §7.1.2.1), and Python websockets declines a response without it.
func (p Params) format(serverBits bool) string {
	var b strings.Builder
	b.WriteString(ExtensionName)
	if p.ServerNoContextTakeover {
		b.WriteString("; " + paramServerNoContextTakeover)
	}
	if p.ClientNoContextTakeover {
		b.WriteString("; " + paramClientNoContextTakeover)
	}
	if p.ServerMaxWindowBits < 15 || serverBits {
		b.WriteString("; " + paramServerMaxWindowBits + "=" + strconv.Itoa(p.ServerMaxWindowBits))
	}
	if p.ClientMaxWindowBits < 15 {
		b.WriteString("; " + paramClientMaxWindowBits + "=" + strconv.Itoa(p.ClientMaxWindowBits))
	}
	return b.String()
}

// offered is a permessage-deflate element's parameters after validation.
// Window bits are 0 when absent; clientBitsBare marks client_max_window_bits
// given without a value.
type offered struct {
	serverNoTakeover, clientNoTakeover bool
	serverBits, clientBits             int
	clientBitsBare                     bool
}

// parseParams validates the parameters of one permessage-deflate element
// against RFC 7692 §7.1: only the four known names, each at most once, the
// context-takeover ones without a value, window bits 8..15 without leading
// zeros. inResponse marks a server response, where client_max_window_bits
// must carry a value.
func parseParams(ps []Param, inResponse bool) (offered, error) {
	var o offered
	var seen [4]bool
	for _, p := range ps {
		var i int
		switch {
		case strings.EqualFold(p.Name, paramServerNoContextTakeover):
			i, o.serverNoTakeover = 0, true
		case strings.EqualFold(p.Name, paramClientNoContextTakeover):
			i, o.clientNoTakeover = 1, true
		case strings.EqualFold(p.Name, paramServerMaxWindowBits):
			i = 2
		case strings.EqualFold(p.Name, paramClientMaxWindowBits):
			i = 3
		default:
			return o, fmt.Errorf("wsdeflate: unknown parameter %q", p.Name)
		}
		if seen[i] {
			return o, fmt.Errorf("wsdeflate: duplicate parameter %q", p.Name)
		}
		seen[i] = true
		switch i {
		case 0, 1:
			if p.Value != "" {
				return o, fmt.Errorf("wsdeflate: %s takes no value", p.Name)
			}
		case 2:
			bits, ok := windowBits(p.Value)
			if !ok {
				return o, fmt.Errorf("wsdeflate: bad %s value %q", p.Name, p.Value)
			}
			o.serverBits = bits
		case 3:
			if p.Value == "" && !inResponse {
				o.clientBitsBare = true
				continue
			}
			bits, ok := windowBits(p.Value)
			if !ok {
				return o, fmt.Errorf("wsdeflate: bad %s value %q", p.Name, p.Value)
			}
			o.clientBits = bits
		}
	}
	return o, nil
}

// windowBits parses the RFC 7692 §7.1.2.1 value: "8" to "15", no leading
// zeros.
func windowBits(v string) (int, bool) {
	if len(v) == 0 || len(v) > 2 || v[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 8 || n > 15 {
		return 0, false
	}
	return n, true
}

// bitsOrDefault maps 0 (the zero value of a Config field) to 15 and clamps
// the rest to lo..15.
func bitsOrDefault(bits, lo int) int {
	if bits == 0 {
		return 15
	}
	return min(max(bits, lo), 15)
}

// Negotiate is the server side of RFC 7692 §5: given the client's
// Sec-WebSocket-Extensions header values, it accepts the first acceptable
// permessage-deflate offer and returns the response element to send and the
// agreed Params. Offers with unknown or duplicate parameters or bad values
// are declined, never failed (RFC 7692 §5.1); ok is false when nothing was
// acceptable, and the handshake then proceeds without compression.
func Negotiate(offers []string, cfg Config) (response string, params Params, ok bool) {
	if cfg.Disabled {
		return "", Params{}, false
	}
	elems, _ := ParseExtensions(offers) // malformed elements are simply not offers
	for _, e := range elems {
		if !strings.EqualFold(e.Name, ExtensionName) {
			continue
		}
		o, err := parseParams(e.Params, false)
		if err != nil {
			continue
		}
		params = accept(o, cfg)
		return params.format(o.serverBits != 0), params, true
	}
	return "", Params{}, false
}

// accept builds the agreement for a valid offer under cfg.
func accept(o offered, cfg Config) Params {
	p := Params{
		// RFC 7692 §7.1.1: the server echoes a client's no_context_takeover
		// request and may add either on its own.
		ServerNoContextTakeover: o.serverNoTakeover || cfg.ServerNoContextTakeover,
		ClientNoContextTakeover: o.clientNoTakeover || cfg.ClientNoContextTakeover,
		// RFC 7692 §7.1.2.1: answer with the offered value or a smaller one;
		// the server may also lower its window when nothing was offered.
		ServerMaxWindowBits: bitsOrDefault(cfg.ServerMaxWindowBits, 8),
		ClientMaxWindowBits: 15,
	}
	if o.serverBits != 0 {
		p.ServerMaxWindowBits = min(p.ServerMaxWindowBits, o.serverBits)
	}
	// RFC 7692 §7.1.2.2: client_max_window_bits may appear in the response
	// only if the client offered it; its offered value already binds the
	// client.
	if o.clientBits != 0 || o.clientBitsBare {
		p.ClientMaxWindowBits = bitsOrDefault(cfg.ClientMaxWindowBits, minZlibWindowBits)
		if o.clientBits != 0 {
			p.ClientMaxWindowBits = min(p.ClientMaxWindowBits, o.clientBits)
		}
	}
	return p
}

// Offer returns the Sec-WebSocket-Extensions value a client sends for cfg,
// empty when cfg is Disabled. It always offers a bare client_max_window_bits
// (or cfg's value), which lets a server ask for a smaller client window
// (RFC 7692 §7.1.2.2).
func (cfg Config) Offer() string {
	if cfg.Disabled {
		return ""
	}
	var b strings.Builder
	b.WriteString(ExtensionName)
	if cfg.ServerNoContextTakeover {
		b.WriteString("; " + paramServerNoContextTakeover)
	}
	if cfg.ClientNoContextTakeover {
		b.WriteString("; " + paramClientNoContextTakeover)
	}
	if bits := bitsOrDefault(cfg.ServerMaxWindowBits, 8); bits < 15 {
		b.WriteString("; " + paramServerMaxWindowBits + "=" + strconv.Itoa(bits))
	}
	b.WriteString("; " + paramClientMaxWindowBits)
	if bits := bitsOrDefault(cfg.ClientMaxWindowBits, 8); bits < 15 {
		b.WriteString("=" + strconv.Itoa(bits))
	}
	return b.String()
}

// ErrBadResponse reports a server's Sec-WebSocket-Extensions response that
// RFC 7692 §5 and §7.1 require the client to fail the connection over.
var ErrBadResponse = errors.New("wsdeflate: invalid permessage-deflate response")

// ParseResponse is the client side of RFC 7692 §5: it validates the server's
// Sec-WebSocket-Extensions header values against the offer that cfg.Offer
// made. ok is false, with a nil error, when the server declined compression.
// Any error wraps ErrBadResponse and means the client must fail the
// WebSocket connection.
func ParseResponse(values []string, cfg Config) (params Params, ok bool, err error) {
	elems, err := ParseExtensions(values)
	if err != nil {
		return Params{}, false, fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	switch {
	case len(elems) == 0:
		return Params{}, false, nil
	case cfg.Disabled:
		return Params{}, false, fmt.Errorf("%w: extensions %q were not offered", ErrBadResponse, values)
	case len(elems) > 1:
		// RFC 7692 §5: one element; we offered nothing else (RFC 6455 §4.1).
		return Params{}, false, fmt.Errorf("%w: %d extensions in response", ErrBadResponse, len(elems))
	case !strings.EqualFold(elems[0].Name, ExtensionName):
		return Params{}, false, fmt.Errorf("%w: extension %q was not offered", ErrBadResponse, elems[0].Name)
	}
	o, err := parseParams(elems[0].Params, true)
	if err != nil {
		return Params{}, false, fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	wantServerBits := bitsOrDefault(cfg.ServerMaxWindowBits, 8)
	clientBits := bitsOrDefault(cfg.ClientMaxWindowBits, 8)
	switch {
	// RFC 7692 §7.1.1.1, §7.1.2.1: a server accepts these by including them.
	case cfg.ServerNoContextTakeover && !o.serverNoTakeover:
		return Params{}, false, fmt.Errorf("%w: server_no_context_takeover was offered but not accepted", ErrBadResponse)
	case wantServerBits < 15 && o.serverBits == 0:
		return Params{}, false, fmt.Errorf("%w: server_max_window_bits was offered but not accepted", ErrBadResponse)
	case o.serverBits > wantServerBits:
		return Params{}, false, fmt.Errorf("%w: server_max_window_bits=%d exceeds the offered %d", ErrBadResponse, o.serverBits, wantServerBits)
	// RFC 7692 §7.1.2.2: no larger than the client offered.
	case o.clientBits > clientBits:
		return Params{}, false, fmt.Errorf("%w: client_max_window_bits=%d exceeds the offered %d", ErrBadResponse, o.clientBits, clientBits)
	}
	params = Params{
		ServerNoContextTakeover: o.serverNoTakeover,
		ClientNoContextTakeover: o.clientNoTakeover || cfg.ClientNoContextTakeover,
		ServerMaxWindowBits:     15,
		ClientMaxWindowBits:     clientBits,
	}
	if o.serverBits != 0 {
		params.ServerMaxWindowBits = o.serverBits
	}
	if o.clientBits != 0 {
		params.ClientMaxWindowBits = o.clientBits
	}
	return params, true, nil
}
