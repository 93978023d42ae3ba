package dictionary

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/squeezehttp/squeeze/internal/sfv"
)

// Available returns the SHA-256 named by the request's
// Available-Dictionary, a structured-field Byte Sequence (RFC 9842 §2.2).
// ok is false when the field is absent, malformed, sent more than once
// (the client "MUST only send a single" one), or not 32 bytes long.
func Available(h http.Header) (hash [sha256.Size]byte, ok bool) {
	lines := h["Available-Dictionary"]
	if len(lines) == 0 {
		return hash, false
	}
	it, err := sfv.ParseItem(lines)
	if err != nil || it.Kind != sfv.Bytes || len(it.Bytes) != sha256.Size {
		return hash, false
	}
	return [sha256.Size]byte(it.Bytes), true
}

// maxID is the longest id RFC 9842 §2.1.3 and §2.3 provide for.
const maxID = 1024

// ID returns the request's Dictionary-ID, a structured-field
// String echoing the id of the dictionary the client has (RFC 9842 §2.3).
// It can tell a server where to find that dictionary, but never what it
// holds: only the hash in Available-Dictionary says that.
func ID(h http.Header) (id string, ok bool) {
	lines := h["Dictionary-Id"]
	if len(lines) == 0 {
		return "", false
	}
	it, err := sfv.ParseItem(lines)
	if err != nil || it.Kind != sfv.String || len(it.Str) > maxID {
		return "", false
	}
	return it.Str, true
}

// UseAs describes a response that clients may keep as a
// dictionary for later requests (RFC 9842 §2.1).
type UseAs struct {
	// Match is the URL pattern of the requests the dictionary is for, such
	// as "/app/*/main.js", relative to the response's URL and always within
	// its origin (RFC 9842 §2.1.1). Required. A pattern with regular
	// expression groups is invalid there, so "(" and ")" are refused.
	Match string

	// MatchDest lists the request destinations (Fetch's "script",
	// "style", "document", ...) the dictionary is for; empty means all
	// (RFC 9842 §2.1.2).
	MatchDest []string

	// ID, when set, is echoed by the client in Dictionary-ID (at most 1024
	// characters, visible ASCII), RFC 9842 §2.1.3.
	ID string

	// MaxAge is how long the response stays fresh, and with it usable as a
	// dictionary (RFC 9842 §2.2.1), written as Cache-Control: max-age when
	// the response has no Cache-Control of its own, in whole seconds. Zero
	// means DefaultMaxAge; SetUseAs refuses a negative value, and one under
	// a second, which would make the response never fresh.
	MaxAge time.Duration
}

// DefaultMaxAge is the freshness SetUseAs gives a
// dictionary whose response has no Cache-Control: a year, the lifetime
// usual for versioned assets and the one RFC 9842 §2.1.5's example uses.
const DefaultMaxAge = 365 * 24 * time.Hour

// ErrNotFresh is returned by SetUseAs when the
// response's own Cache-Control forbids using it without revalidation, so
// that no client could use it as a dictionary (RFC 9842 §2.2.1).
var ErrNotFresh = errors.New("dictionary: Use-As-Dictionary on a response that Cache-Control keeps from being fresh")

// Value returns the Use-As-Dictionary field value, a structured-field
// Dictionary (RFC 9842 §2.1). The type is left out: its default, raw, is
// the only one defined (§2.1.4).
func (u UseAs) Value() (string, error) {
	if u.Match == "" {
		return "", errors.New("dictionary: Use-As-Dictionary needs a match pattern")
	}
	if strings.ContainsAny(u.Match, "()") {
		return "", fmt.Errorf("dictionary: match pattern %q has a regular expression group (RFC 9842 §2.1.1)", u.Match)
	}
	if len(u.ID) > maxID {
		return "", fmt.Errorf("dictionary: id of %d characters, more than %d", len(u.ID), maxID)
	}
	ms := []sfv.Member{{Key: "match", Value: sfv.Item{Kind: sfv.String, Str: u.Match}}}
	if len(u.MatchDest) > 0 {
		dest := sfv.Item{Kind: sfv.InnerList}
		for _, d := range u.MatchDest {
			dest.Inner = append(dest.Inner, sfv.Item{Kind: sfv.String, Str: d})
		}
		ms = append(ms, sfv.Member{Key: "match-dest", Value: dest})
	}
	if u.ID != "" {
		ms = append(ms, sfv.Member{Key: "id", Value: sfv.Item{Kind: sfv.String, Str: u.ID}})
	}
	v, err := sfv.SerializeDictionary(ms)
	if err != nil {
		return "", fmt.Errorf("dictionary: Use-As-Dictionary: %w", err)
	}
	return v, nil
}

// checkMaxAge refuses a MaxAge that cannot be meant: a negative one, and
// one under a second, which max-age, in whole seconds, would write as 0.
func checkMaxAge(d time.Duration) error {
	switch {
	case d < 0:
		return errors.New("negative (0 means DefaultMaxAge)")
	case d > 0 && d < time.Second:
		return errors.New("under a second: max-age=0 would never be fresh (0 means DefaultMaxAge)")
	}
	return nil
}

// SetUseAs marks the response whose header is h as a dictionary
// for the requests u matches: it sets Use-As-Dictionary and, when h has no
// Cache-Control, Cache-Control: max-age=u.MaxAge, since a client uses a
// dictionary only while it is fresh (RFC 9842 §2.2.1). A Cache-Control the
// handler set is left alone, but one with no-store or no-cache is an error
// (ErrNotFresh): the response would never be fresh. Call it
// before the first Write or WriteHeader.
func SetUseAs(h http.Header, u UseAs) error {
	v, err := u.Value()
	if err != nil {
		return err
	}
	if err := checkMaxAge(u.MaxAge); err != nil {
		return fmt.Errorf("dictionary: UseAs.MaxAge %v: %w", u.MaxAge, err)
	}
	cc := h["Cache-Control"]
	if hasBare(cc, "no-store") || hasBare(cc, "no-cache") {
		return ErrNotFresh
	}
	if cc == nil {
		age := u.MaxAge
		if age == 0 {
			age = DefaultMaxAge
		}
		h.Set("Cache-Control", "max-age="+strconv.FormatInt(int64(age/time.Second), 10))
	}
	h.Set("Use-As-Dictionary", v)
	return nil
}
