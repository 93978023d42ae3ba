package encoding

import (
	"reflect"
	"testing"
)

// RFC 9651 §4.2: what the parsing algorithms accept, and the value.
func TestStructuredFieldParsesPerRFC9651(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  sfItem
	}{
		{"integer", "42", sfItem{kind: sfInteger, num: 42}},
		{"negative integer", "-999999999999999", sfItem{kind: sfInteger, num: -999999999999999}},
		{"decimal", "4.5", sfItem{kind: sfDecimal, num: 4500}},
		{"decimal three places", "-0.125", sfItem{kind: sfDecimal, num: -125}},
		{"string with escapes", `"a\"b\\c"`, sfItem{kind: sfString, str: `a"b\c`}},
		{"token", "raw", sfItem{kind: sfToken, str: "raw"}},
		{"token with colon and slash", "text/html:x", sfItem{kind: sfToken, str: "text/html:x"}},
		{"byte sequence", ":aGVsbG8=:", sfItem{kind: sfBytes, bytes: []byte("hello")}},
		{"byte sequence without padding", ":aGVsbG8:", sfItem{kind: sfBytes, bytes: []byte("hello")}},
		{"empty byte sequence", "::", sfItem{kind: sfBytes, bytes: []byte{}}},
		{"boolean", "?0", sfItem{kind: sfBoolean}},
		{"date", "@1659578233", sfItem{kind: sfDate, num: 1659578233}},
		{"display string", `%"f%c3%bc%c3%bc"`, sfItem{kind: sfDisplayString, str: "füü"}},
		{"parameters", "abc;a=1;b", sfItem{kind: sfToken, str: "abc", params: []sfParam{{"a", sfItem{kind: sfInteger, num: 1}}, {"b", sfItem{kind: sfBoolean, truth: true}}}}},
		{"duplicate parameter keeps place, last value", "1;a=1;b=2;a=3", sfItem{kind: sfInteger, num: 1, params: []sfParam{{"a", sfItem{kind: sfInteger, num: 3}}, {"b", sfItem{kind: sfInteger, num: 2}}}}},
		{"leading and trailing spaces", "  7  ", sfItem{kind: sfInteger, num: 7}},
	}
	for _, tt := range tests {
		got, err := parseSFItem([]string{tt.input})
		if err != nil {
			t.Errorf("%s: parse %q: %v", tt.name, tt.input, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: parse %q = %+v, want %+v", tt.name, tt.input, got, tt.want)
		}
	}
}

// RFC 9651 §4.2: any deviation fails the whole field.
func TestStructuredFieldRejectsMalformed(t *testing.T) {
	for _, input := range []string{
		"", " ", "1 2", "1,2", "\t1",
		"1234567890123456", "1234567890123.1", "1.2345", "1.", "-", "--1", "1.2.3",
		`"unterminated`, `"bad \n escape"`, "\"tab\there\"", "\"\x7f\"",
		":aGVsbG8", ":a$b:", ":a=b=:", ":aGVsbG8==:",
		"?2", "?", "@1.5", "@x", `%"bad%C3%BC"`, `%"%ff"`, `%"x`,
		"1;A=1", "1;a=", "(1 2)", "a=1",
	} {
		if it, err := parseSFItem([]string{input}); err == nil {
			t.Errorf("parse item %q = %+v, want an error", input, it)
		}
	}
}

func TestStructuredFieldItemRejectsSecondLine(t *testing.T) {
	if _, err := parseSFItem([]string{":aGVsbG8=:", ":aGVsbG8=:"}); err == nil {
		t.Fatal("two field lines parsed as one Item; RFC 9651 §4.2 joins them into a List that an Item parser must reject")
	}
}

func TestStructuredFieldDictionary(t *testing.T) {
	got, err := parseSFDictionary([]string{`match="/app/*/main.js", match-dest=("script" "style");x, id="v1"`, "type=raw, id=\"v2\""})
	if err != nil {
		t.Fatal(err)
	}
	want := []sfMember{
		{"match", sfItem{kind: sfString, str: "/app/*/main.js"}},
		{"match-dest", sfItem{kind: sfInnerList, inner: []sfItem{{kind: sfString, str: "script"}, {kind: sfString, str: "style"}}, params: []sfParam{{"x", sfItem{kind: sfBoolean, truth: true}}}}},
		{"id", sfItem{kind: sfString, str: "v2"}}, // the later value, in the first place (§4.2.2)
		{"type", sfItem{kind: sfToken, str: "raw"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parse = %+v\nwant    %+v", got, want)
	}
	for _, bad := range []string{"a=1,", "a=1,,b=2", "A=1", "a=(1", "a=(1,2)", "a=1 b=2", "a=()x"} {
		if ms, err := parseSFDictionary([]string{bad}); err == nil {
			t.Errorf("parse dictionary %q = %+v, want an error", bad, ms)
		}
	}
}

func TestStructuredFieldList(t *testing.T) {
	got, err := parseSFList([]string{`"document", (a b);q=1`, "?1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []sfItem{
		{kind: sfString, str: "document"},
		{kind: sfInnerList, inner: []sfItem{{kind: sfToken, str: "a"}, {kind: sfToken, str: "b"}}, params: []sfParam{{"q", sfItem{kind: sfInteger, num: 1}}}},
		{kind: sfBoolean, truth: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parse = %+v\nwant    %+v", got, want)
	}
	if empty, err := parseSFList([]string{""}); err != nil || len(empty) != 0 {
		t.Fatalf("an empty List field = %v, %v; want an empty list", empty, err)
	}
}

// What the serializer writes parses back to the same value (RFC 9651 §4.1).
func TestStructuredFieldSerializeRoundTrips(t *testing.T) {
	ms := []sfMember{
		{"match", sfItem{kind: sfString, str: `/a "b" \c`}},
		{"match-dest", sfItem{kind: sfInnerList, inner: []sfItem{{kind: sfString, str: "script"}}}},
		{"flag", sfItem{kind: sfBoolean, truth: true, params: []sfParam{{"p", sfItem{kind: sfDecimal, num: 1500}}}}},
		{"off", sfItem{kind: sfBoolean}},
		{"h", sfItem{kind: sfBytes, bytes: []byte{0, 1, 2, 255}}},
		{"d", sfItem{kind: sfDate, num: -5}},
		{"s", sfItem{kind: sfDisplayString, str: `100% "ü"`}},
		{"t", sfItem{kind: sfToken, str: "*tok/en:x"}},
	}
	text, err := serializeSFDictionary(ms)
	if err != nil {
		t.Fatal(err)
	}
	back, err := parseSFDictionary([]string{text})
	if err != nil {
		t.Fatalf("serialized %q does not parse: %v", text, err)
	}
	if !reflect.DeepEqual(back, ms) {
		t.Fatalf("round trip through %q:\n got %+v\nwant %+v", text, back, ms)
	}
}

func TestStructuredFieldSerializeRefusesWhatCannotBeSent(t *testing.T) {
	for _, it := range []sfItem{
		{kind: sfString, str: "line\nbreak"},
		{kind: sfString, str: "ü"},
		{kind: sfToken, str: "1abc"},
		{kind: sfToken, str: "a b"},
		{kind: sfInteger, num: 1e15},
		{kind: sfDisplayString, str: "\xff"},
	} {
		if s, err := serializeSFItem(it); err == nil {
			t.Errorf("serialize %+v = %q, want an error", it, s)
		}
	}
}
