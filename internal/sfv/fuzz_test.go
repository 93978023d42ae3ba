package sfv

import (
	"bytes"

	"reflect"
	"testing"
)

// FuzzStructuredField parses arbitrary Dictionary and List fields; what
// parses must serialize, and parse back to the same value (RFC 9651 §4).
func FuzzStructuredField(f *testing.F) {
	f.Add(`match="/app/*/main.js", match-dest=("script"), id="v1", type=raw`)
	f.Add(`a=1;x=?0, b=(1.5 "s" :AA==: @12 %"%c3%bc");q, c`)
	f.Add(`*=-0.001, k_9.-*=tok/x:y`)
	f.Add(`a=(), b=()`)
	f.Fuzz(func(t *testing.T, field string) {
		if ms, err := ParseDictionary([]string{field}); err == nil {
			text, err := SerializeDictionary(ms)
			if err != nil {
				t.Fatalf("dictionary %q parsed to %+v, which does not serialize: %v", field, ms, err)
			}
			back, err := ParseDictionary([]string{text})
			if err != nil || !sfMembersEqual(back, ms) {
				t.Fatalf("dictionary %q → %q → %+v, %v; want %+v", field, text, back, err, ms)
			}
		}
		if items, err := ParseList([]string{field}); err == nil {
			text, err := SerializeList(items)
			if err != nil {
				t.Fatalf("list %q parsed to %+v, which does not serialize: %v", field, items, err)
			}
			back, err := ParseList([]string{text})
			if err != nil || !sfItemsEqual(back, items) {
				t.Fatalf("list %q → %q → %+v, %v; want %+v", field, text, back, err, items)
			}
		}
	})
}

// sfMembersEqual and sfItemsEqual compare parsed values, taking an empty
// byte sequence and a nil one as the same.
func sfMembersEqual(a, b []Member) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || !sfItemsEqual([]Item{a[i].Value}, []Item{b[i].Value}) {
			return false
		}
	}
	return true
}

func sfItemsEqual(a, b []Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !bytes.Equal(x.Bytes, y.Bytes) || !sfItemsEqual(x.Inner, y.Inner) || len(x.Params) != len(y.Params) {
			return false
		}
		for j := range x.Params {
			if x.Params[j].Key != y.Params[j].Key || !sfItemsEqual([]Item{x.Params[j].Value}, []Item{y.Params[j].Value}) {
				return false
			}
		}
		x.Bytes, y.Bytes, x.Inner, y.Inner, x.Params, y.Params = nil, nil, nil, nil, nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
