package encoding

import (
	"bytes"
	"net/http"
	"reflect"
	"testing"
)

// FuzzAvailableDictionary parses arbitrary Available-Dictionary and
// Dictionary-ID values: never a panic, a hash only from a 32-byte Byte
// Sequence, and one that serializes back to a value naming the same hash.
func FuzzAvailableDictionary(f *testing.F) {
	f.Add(":pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=:", `"/v1/main.js 33a64df5"`)
	f.Add(":pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4:", `"a\"b"`)
	f.Add(":aGVsbG8=:;p=1", "token")
	f.Add("  :AAAA:  ", `"`)
	f.Fuzz(func(t *testing.T, available, id string) {
		h := http.Header{"Available-Dictionary": {available}, "Dictionary-Id": {id}}
		if hash, ok := AvailableDictionary(h); ok {
			v, err := serializeSFItem(sfItem{kind: sfBytes, bytes: hash[:]})
			if err != nil {
				t.Fatalf("hash from %q does not serialize: %v", available, err)
			}
			again, ok := AvailableDictionary(http.Header{"Available-Dictionary": {v}})
			if !ok || !bytes.Equal(again[:], hash[:]) {
				t.Fatalf("%q gave hash %x; its serialization %q gives %x, %v", available, hash, v, again, ok)
			}
		}
		if s, ok := DictionaryID(h); ok && len(s) > maxDictionaryID {
			t.Fatalf("Dictionary-ID %q gave an id of %d characters", id, len(s))
		}
	})
}

// FuzzStructuredField parses arbitrary Dictionary and List fields; what
// parses must serialize, and parse back to the same value (RFC 9651 §4).
func FuzzStructuredField(f *testing.F) {
	f.Add(`match="/app/*/main.js", match-dest=("script"), id="v1", type=raw`)
	f.Add(`a=1;x=?0, b=(1.5 "s" :AA==: @12 %"%c3%bc");q, c`)
	f.Add(`*=-0.001, k_9.-*=tok/x:y`)
	f.Add(`a=(), b=()`)
	f.Fuzz(func(t *testing.T, field string) {
		if ms, err := parseSFDictionary([]string{field}); err == nil {
			text, err := serializeSFDictionary(ms)
			if err != nil {
				t.Fatalf("dictionary %q parsed to %+v, which does not serialize: %v", field, ms, err)
			}
			back, err := parseSFDictionary([]string{text})
			if err != nil || !sfMembersEqual(back, ms) {
				t.Fatalf("dictionary %q → %q → %+v, %v; want %+v", field, text, back, err, ms)
			}
		}
		if items, err := parseSFList([]string{field}); err == nil {
			text, err := serializeSFList(items)
			if err != nil {
				t.Fatalf("list %q parsed to %+v, which does not serialize: %v", field, items, err)
			}
			back, err := parseSFList([]string{text})
			if err != nil || !sfItemsEqual(back, items) {
				t.Fatalf("list %q → %q → %+v, %v; want %+v", field, text, back, err, items)
			}
		}
	})
}

// sfMembersEqual and sfItemsEqual compare parsed values, taking an empty
// byte sequence and a nil one as the same.
func sfMembersEqual(a, b []sfMember) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].key != b[i].key || !sfItemsEqual([]sfItem{a[i].value}, []sfItem{b[i].value}) {
			return false
		}
	}
	return true
}

func sfItemsEqual(a, b []sfItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !bytes.Equal(x.bytes, y.bytes) || !sfItemsEqual(x.inner, y.inner) || len(x.params) != len(y.params) {
			return false
		}
		for j := range x.params {
			if x.params[j].key != y.params[j].key || !sfItemsEqual([]sfItem{x.params[j].value}, []sfItem{y.params[j].value}) {
				return false
			}
		}
		x.bytes, y.bytes, x.inner, y.inner, x.params, y.params = nil, nil, nil, nil, nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
