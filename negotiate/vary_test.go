package negotiate

import (
	"net/http"
	"reflect"
	"testing"
)

// RFC 9110 §12.5.5: Vary is a list of case-insensitive field names, or "*".
func TestAddVary(t *testing.T) {
	for _, c := range []struct {
		name   string
		before []string
		add    []string
		want   []string
	}{
		{"absent", nil, []string{"Accept-Encoding"}, []string{"Accept-Encoding"}},
		{"merged into the line", []string{"Origin"}, []string{"Accept-Encoding"}, []string{"Origin, Accept-Encoding"}},
		{"already there, other case", []string{"origin, accept-encoding"}, []string{"Accept-Encoding"}, []string{"origin, accept-encoding"}},
		{"on another line", []string{"Accept-Encoding", "Origin"}, []string{"Accept-Encoding"}, []string{"Accept-Encoding", "Origin"}},
		{"appended to the last line", []string{"Origin", "Cookie"}, []string{"Accept-Encoding"}, []string{"Origin", "Cookie, Accept-Encoding"}},
		{"star left alone", []string{"*"}, []string{"Accept-Encoding"}, []string{"*"}},
		{"star inside a list", []string{"Origin, *"}, []string{"Accept-Encoding"}, []string{"Origin, *"}},
		{"empty line reused", []string{""}, []string{"Accept-Encoding"}, []string{"Accept-Encoding"}},
		{"several, no duplicates", []string{"Origin"}, []string{"Accept-Encoding", "Available-Dictionary", "accept-encoding"}, []string{"Origin, Accept-Encoding, Available-Dictionary"}},
		{"not a substring match", []string{"X-Accept-Encoding"}, []string{"Accept-Encoding"}, []string{"X-Accept-Encoding, Accept-Encoding"}},
		{"whitespace", []string{" Origin ,\tAccept-Encoding "}, []string{"Accept-Encoding"}, []string{" Origin ,\tAccept-Encoding "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.before != nil {
				h["Vary"] = append([]string(nil), c.before...)
			}
			AddVary(h, c.add...)
			if got := h["Vary"]; !reflect.DeepEqual(got, c.want) {
				t.Errorf("AddVary(%q, %q): Vary = %q, want %q", c.before, c.add, got, c.want)
			}
		})
	}
}

func TestAddVaryNothingToAdd(t *testing.T) {
	h := http.Header{}
	AddVary(h)
	if _, ok := h["Vary"]; ok {
		t.Error("AddVary with no fields created a Vary header")
	}
}

func TestAddVaryDoesNotWriteSharedSlices(t *testing.T) {
	shared := []string{"Origin"}
	h := http.Header{"Vary": shared}
	AddVary(h, "Accept-Encoding")
	if shared[0] != "Origin" || h.Get("Vary") != "Origin, Accept-Encoding" {
		t.Fatalf("shared slice now %q, header %q", shared, h["Vary"])
	}
}

// Most compressed responses vary on Accept-Encoding alone: AddVary gives
// them one shared value, allocating nothing, and a later AddVary on any of
// them replaces it instead of editing what the others hold.
func TestAddVaryAcceptEncodingAloneAllocatesNothing(t *testing.T) {
	h := http.Header{}
	if n := testing.AllocsPerRun(100, func() {
		delete(h, "Vary")
		AddVary(h, "Accept-Encoding")
	}); n != 0 {
		t.Errorf("AddVary(Accept-Encoding) on a response without Vary: %v allocations, want 0", n)
	}
	other := http.Header{}
	AddVary(other, "Accept-Encoding")
	AddVary(h, "Accept-Encoding")
	AddVary(h, "Origin")
	if got := other.Get("Vary"); got != "Accept-Encoding" {
		t.Errorf("another response's Vary became %q when one added Origin", got)
	}
	if got := h.Get("Vary"); got != "Accept-Encoding, Origin" {
		t.Errorf("Vary %q, want Accept-Encoding, Origin", got)
	}
}
