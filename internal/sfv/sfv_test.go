package sfv

import (
	"reflect"
	"testing"
)

// RFC 9651 §4.2: what the parsing algorithms accept, and the value.
func TestStructuredFieldParsesPerRFC9651(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  Item
	}{
		{"integer", "42", Item{Kind: Integer, Num: 42}},
		{"negative integer", "-999999999999999", Item{Kind: Integer, Num: -999999999999999}},
		{"decimal", "4.5", Item{Kind: Decimal, Num: 4500}},
		{"decimal three places", "-0.125", Item{Kind: Decimal, Num: -125}},
		{"string with escapes", `"a\"b\\c"`, Item{Kind: String, Str: `a"b\c`}},
		{"token", "raw", Item{Kind: Token, Str: "raw"}},
		{"token with colon and slash", "text/html:x", Item{Kind: Token, Str: "text/html:x"}},
		{"byte sequence", ":aGVsbG8=:", Item{Kind: Bytes, Bytes: []byte("hello")}},
		{"byte sequence without padding", ":aGVsbG8:", Item{Kind: Bytes, Bytes: []byte("hello")}},
		{"empty byte sequence", "::", Item{Kind: Bytes, Bytes: []byte{}}},
		{"boolean", "?0", Item{Kind: Boolean}},
		{"date", "@1659578233", Item{Kind: Date, Num: 1659578233}},
		{"display string", `%"f%c3%bc%c3%bc"`, Item{Kind: DisplayString, Str: "füü"}},
		{"parameters", "abc;a=1;b", Item{Kind: Token, Str: "abc", Params: []Param{{"a", Item{Kind: Integer, Num: 1}}, {"b", Item{Kind: Boolean, Truth: true}}}}},
		{"duplicate parameter keeps place, last value", "1;a=1;b=2;a=3", Item{Kind: Integer, Num: 1, Params: []Param{{"a", Item{Kind: Integer, Num: 3}}, {"b", Item{Kind: Integer, Num: 2}}}}},
		{"leading and trailing spaces", "  7  ", Item{Kind: Integer, Num: 7}},
	}
	for _, tt := range tests {
		got, err := ParseItem([]string{tt.input})
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
		if it, err := ParseItem([]string{input}); err == nil {
			t.Errorf("parse item %q = %+v, want an error", input, it)
		}
	}
}

func TestStructuredFieldItemRejectsSecondLine(t *testing.T) {
	if _, err := ParseItem([]string{":aGVsbG8=:", ":aGVsbG8=:"}); err == nil {
		t.Fatal("two field lines parsed as one Item; RFC 9651 §4.2 joins them into a List that an Item parser must reject")
	}
}

func TestStructuredFieldDictionary(t *testing.T) {
	got, err := ParseDictionary([]string{`match="/app/*/main.js", match-dest=("script" "style");x, id="v1"`, "type=raw, id=\"v2\""})
	if err != nil {
		t.Fatal(err)
	}
	want := []Member{
		{"match", Item{Kind: String, Str: "/app/*/main.js"}},
		{"match-dest", Item{Kind: InnerList, Inner: []Item{{Kind: String, Str: "script"}, {Kind: String, Str: "style"}}, Params: []Param{{"x", Item{Kind: Boolean, Truth: true}}}}},
		{"id", Item{Kind: String, Str: "v2"}}, // the later value, in the first place (§4.2.2)
		{"type", Item{Kind: Token, Str: "raw"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parse = %+v\nwant    %+v", got, want)
	}
	for _, bad := range []string{"a=1,", "a=1,,b=2", "A=1", "a=(1", "a=(1,2)", "a=1 b=2", "a=()x"} {
		if ms, err := ParseDictionary([]string{bad}); err == nil {
			t.Errorf("parse dictionary %q = %+v, want an error", bad, ms)
		}
	}
}

func TestStructuredFieldList(t *testing.T) {
	got, err := ParseList([]string{`"document", (a b);q=1`, "?1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{
		{Kind: String, Str: "document"},
		{Kind: InnerList, Inner: []Item{{Kind: Token, Str: "a"}, {Kind: Token, Str: "b"}}, Params: []Param{{"q", Item{Kind: Integer, Num: 1}}}},
		{Kind: Boolean, Truth: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parse = %+v\nwant    %+v", got, want)
	}
	if empty, err := ParseList([]string{""}); err != nil || len(empty) != 0 {
		t.Fatalf("an empty List field = %v, %v; want an empty list", empty, err)
	}
}

// What the serializer writes parses back to the same value (RFC 9651 §4.1).
func TestStructuredFieldSerializeRoundTrips(t *testing.T) {
	ms := []Member{
		{"match", Item{Kind: String, Str: `/a "b" \c`}},
		{"match-dest", Item{Kind: InnerList, Inner: []Item{{Kind: String, Str: "script"}}}},
		{"flag", Item{Kind: Boolean, Truth: true, Params: []Param{{"p", Item{Kind: Decimal, Num: 1500}}}}},
		{"off", Item{Kind: Boolean}},
		{"h", Item{Kind: Bytes, Bytes: []byte{0, 1, 2, 255}}},
		{"d", Item{Kind: Date, Num: -5}},
		{"s", Item{Kind: DisplayString, Str: `100% "ü"`}},
		{"t", Item{Kind: Token, Str: "*tok/en:x"}},
	}
	text, err := SerializeDictionary(ms)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseDictionary([]string{text})
	if err != nil {
		t.Fatalf("serialized %q does not parse: %v", text, err)
	}
	if !reflect.DeepEqual(back, ms) {
		t.Fatalf("round trip through %q:\n got %+v\nwant %+v", text, back, ms)
	}
}

func TestStructuredFieldSerializeRefusesWhatCannotBeSent(t *testing.T) {
	for _, it := range []Item{
		{Kind: String, Str: "line\nbreak"},
		{Kind: String, Str: "ü"},
		{Kind: Token, Str: "1abc"},
		{Kind: Token, Str: "a b"},
		{Kind: Integer, Num: 1e15},
		{Kind: DisplayString, Str: "\xff"},
	} {
		if s, err := SerializeItem(it); err == nil {
			t.Errorf("serialize %+v = %q, want an error", it, s)
		}
	}
}
