package wsdeflate

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseExtensionsGrammar(t *testing.T) {
	tests := []struct {
		name    string
		values  []string
		want    []Offer
		wantErr bool
	}{
		{"bare", []string{"permessage-deflate"}, []Offer{{Name: "permessage-deflate"}}, false},
		{"params and spaces", []string{"permessage-deflate ; client_max_window_bits ;server_max_window_bits=10"},
			[]Offer{{"permessage-deflate", []Param{{"client_max_window_bits", ""}, {"server_max_window_bits", "10"}}}}, false},
		{"quoted value unquoted", []string{`permessage-deflate; server_max_window_bits="10"`},
			[]Offer{{"permessage-deflate", []Param{{"server_max_window_bits", "10"}}}}, false},
		{"several elements and lines", []string{"x-foo, permessage-deflate; client_no_context_takeover", "permessage-deflate"},
			[]Offer{{Name: "x-foo"}, {"permessage-deflate", []Param{{"client_no_context_takeover", ""}}}, {Name: "permessage-deflate"}}, false},
		{"empty elements", []string{" , permessage-deflate ,, "}, []Offer{{Name: "permessage-deflate"}}, false},
		{"bad element skipped", []string{`permessage-deflate; a="x,y" ;;, permessage-deflate`}, []Offer{{Name: "permessage-deflate"}}, true},
		{"quoted value must be a token", []string{`permessage-deflate; a="1 0"`}, nil, true},
		{"unterminated quote", []string{`permessage-deflate; a="10`}, nil, true},
		{"missing value", []string{"permessage-deflate; a="}, nil, true},
		{"junk after name", []string{"permessage-deflate x"}, nil, true},
		{"empty param name", []string{"permessage-deflate; =1"}, nil, true},
		{"empty header", []string{""}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseExtensions(tt.values)
			if (err != nil) != tt.wantErr {
				t.Errorf("ParseExtensions(%q) error = %v, want error %v", tt.values, err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseExtensions(%q) = %+v, want %+v", tt.values, got, tt.want)
			}
		})
	}
}

func TestNegotiateServerSide(t *testing.T) {
	all15 := Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}
	tests := []struct {
		name     string
		offers   []string
		cfg      Config
		wantOK   bool
		wantResp string
		want     Params
	}{
		{"plain offer", []string{"permessage-deflate"}, Config{}, true, "permessage-deflate", all15},
		{"other extensions ignored", []string{"x-webkit-deflate-frame, permessage-deflate"}, Config{}, true, "permessage-deflate", all15},
		{"no offer", []string{"x-foo"}, Config{}, false, "", Params{}},
		{"no header", nil, Config{}, false, "", Params{}},
		{"Disabled declines a valid offer", []string{"permessage-deflate"}, Config{Disabled: true}, false, "", Params{}},
		{"unknown param declined, next offer taken", []string{"permessage-deflate; foo, permessage-deflate; client_max_window_bits"},
			Config{}, true, "permessage-deflate", all15},
		{"duplicate param declined", []string{"permessage-deflate; server_no_context_takeover; server_no_context_takeover"}, Config{}, false, "", Params{}},
		{"takeover param with value declined", []string{"permessage-deflate; client_no_context_takeover=1"}, Config{}, false, "", Params{}},
		{"window bits out of range declined", []string{"permessage-deflate; server_max_window_bits=16"}, Config{}, false, "", Params{}},
		{"window bits 7 declined", []string{"permessage-deflate; server_max_window_bits=7"}, Config{}, false, "", Params{}},
		{"leading zero declined", []string{"permessage-deflate; server_max_window_bits=010"}, Config{}, false, "", Params{}},
		{"bare server_max_window_bits declined", []string{"permessage-deflate; server_max_window_bits"}, Config{}, false, "", Params{}},
		{"server bits answered with the offer", []string{"permessage-deflate; server_max_window_bits=10"}, Config{}, true,
			"permessage-deflate; server_max_window_bits=10", Params{ServerMaxWindowBits: 10, ClientMaxWindowBits: 15}},
		// RFC 7692 §7.1.2.1: accepting the parameter means including it, even
		// at its default (Python websockets declines a response without it).
		{"offered server bits 15 are echoed", []string{"permessage-deflate; server_max_window_bits=15"}, Config{}, true,
			"permessage-deflate; server_max_window_bits=15", all15},
		{"server bits answered below the offer", []string{"permessage-deflate; server_max_window_bits=12"}, Config{ServerMaxWindowBits: 9}, true,
			"permessage-deflate; server_max_window_bits=9", Params{ServerMaxWindowBits: 9, ClientMaxWindowBits: 15}},
		{"server bits 8 honoured", []string{"permessage-deflate; server_max_window_bits=8"}, Config{}, true,
			"permessage-deflate; server_max_window_bits=8", Params{ServerMaxWindowBits: 8, ClientMaxWindowBits: 15}},
		{"server lowers its own window unasked", []string{"permessage-deflate"}, Config{ServerMaxWindowBits: 11}, true,
			"permessage-deflate; server_max_window_bits=11", Params{ServerMaxWindowBits: 11, ClientMaxWindowBits: 15}},
		{"client bits not requested unless offered", []string{"permessage-deflate"}, Config{ClientMaxWindowBits: 10}, true,
			"permessage-deflate", all15},
		{"client bits requested when offered bare", []string{"permessage-deflate; client_max_window_bits"}, Config{ClientMaxWindowBits: 10}, true,
			"permessage-deflate; client_max_window_bits=10", Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 10}},
		{"client bits capped by the offer", []string{"permessage-deflate; client_max_window_bits=9"}, Config{ClientMaxWindowBits: 12}, true,
			"permessage-deflate; client_max_window_bits=9", Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 9}},
		{"client bits request of 8 raised to 9", []string{"permessage-deflate; client_max_window_bits"}, Config{ClientMaxWindowBits: 8}, true,
			"permessage-deflate; client_max_window_bits=9", Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 9}},
		{"no context takeover echoed", []string{"permessage-deflate; server_no_context_takeover; client_no_context_takeover"}, Config{}, true,
			"permessage-deflate; server_no_context_takeover; client_no_context_takeover",
			Params{ServerNoContextTakeover: true, ClientNoContextTakeover: true, ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}},
		{"no context takeover added by policy", []string{"permessage-deflate"}, Config{ServerNoContextTakeover: true, ClientNoContextTakeover: true}, true,
			"permessage-deflate; server_no_context_takeover; client_no_context_takeover",
			Params{ServerNoContextTakeover: true, ClientNoContextTakeover: true, ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}},
		{"case-insensitive names", []string{"PerMessage-Deflate; Server_Max_Window_Bits=10"}, Config{}, true,
			"permessage-deflate; server_max_window_bits=10", Params{ServerMaxWindowBits: 10, ClientMaxWindowBits: 15}},
		{"malformed header declined", []string{`permessage-deflate; server_max_window_bits="1`}, Config{}, false, "", Params{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, params, ok := Negotiate(tt.offers, tt.cfg)
			if ok != tt.wantOK || resp != tt.wantResp || params != tt.want {
				t.Errorf("Negotiate(%q, %+v) = %q, %+v, %v; want %q, %+v, %v",
					tt.offers, tt.cfg, resp, params, ok, tt.wantResp, tt.want, tt.wantOK)
			}
		})
	}
}

func TestClientOffer(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{}, "permessage-deflate; client_max_window_bits"},
		{Config{ServerMaxWindowBits: 10, ClientMaxWindowBits: 12}, "permessage-deflate; server_max_window_bits=10; client_max_window_bits=12"},
		{Config{ServerNoContextTakeover: true, ClientNoContextTakeover: true},
			"permessage-deflate; server_no_context_takeover; client_no_context_takeover; client_max_window_bits"},
		{Config{Disabled: true, ServerMaxWindowBits: 10}, ""}, // Dial then sends no Sec-WebSocket-Extensions
	}
	for _, tt := range tests {
		if got := tt.cfg.Offer(); got != tt.want {
			t.Errorf("%+v.Offer() = %q, want %q", tt.cfg, got, tt.want)
		}
	}
}

func TestParseResponseClientSide(t *testing.T) {
	tests := []struct {
		name    string
		resp    []string
		cfg     Config
		wantOK  bool
		wantErr bool
		want    Params
	}{
		{"declined", nil, Config{}, false, false, Params{}},
		{"nothing offered, nothing accepted", nil, Config{Disabled: true}, false, false, Params{}},
		// RFC 6455 §9.1: a server may accept only what the client offered.
		{"nothing offered, accepted anyway fails", []string{"permessage-deflate"}, Config{Disabled: true}, false, true, Params{}},
		{"accepted plain", []string{"permessage-deflate"}, Config{}, true, false, Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}},
		{"server asks for client window", []string{"permessage-deflate; client_max_window_bits=10"}, Config{}, true, false,
			Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 10}},
		{"server lowers its window", []string{"permessage-deflate; server_max_window_bits=9"}, Config{}, true, false,
			Params{ServerMaxWindowBits: 9, ClientMaxWindowBits: 15}},
		{"server adds no_context_takeover", []string{"permessage-deflate; server_no_context_takeover; client_no_context_takeover"}, Config{}, true, false,
			Params{ServerNoContextTakeover: true, ClientNoContextTakeover: true, ServerMaxWindowBits: 15, ClientMaxWindowBits: 15}},
		{"our offered window binds us", []string{"permessage-deflate"}, Config{ClientMaxWindowBits: 11}, true, false,
			Params{ServerMaxWindowBits: 15, ClientMaxWindowBits: 11}},
		{"unknown param fails", []string{"permessage-deflate; foo"}, Config{}, false, true, Params{}},
		{"duplicate param fails", []string{"permessage-deflate; server_max_window_bits=9; server_max_window_bits=9"}, Config{}, false, true, Params{}},
		{"bad value fails", []string{"permessage-deflate; server_max_window_bits=16"}, Config{}, false, true, Params{}},
		{"bare client_max_window_bits fails", []string{"permessage-deflate; client_max_window_bits"}, Config{}, false, true, Params{}},
		{"client window above offer fails", []string{"permessage-deflate; client_max_window_bits=12"}, Config{ClientMaxWindowBits: 10}, false, true, Params{}},
		{"server window above offer fails", []string{"permessage-deflate; server_max_window_bits=12"}, Config{ServerMaxWindowBits: 10}, false, true, Params{}},
		{"offered server window not accepted fails", []string{"permessage-deflate"}, Config{ServerMaxWindowBits: 10}, false, true, Params{}},
		{"offered server_no_context_takeover not accepted fails", []string{"permessage-deflate"}, Config{ServerNoContextTakeover: true}, false, true, Params{}},
		{"two elements fail", []string{"permessage-deflate", "permessage-deflate"}, Config{}, false, true, Params{}},
		{"extension not offered fails", []string{"x-foo"}, Config{}, false, true, Params{}},
		{"malformed fails", []string{"permessage-deflate;"}, Config{}, false, true, Params{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, ok, err := ParseResponse(tt.resp, tt.cfg)
			if (err != nil) != tt.wantErr || ok != tt.wantOK || params != tt.want {
				t.Errorf("ParseResponse(%q, %+v) = %+v, %v, %v; want %+v, %v, error %v",
					tt.resp, tt.cfg, params, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrBadResponse) {
				t.Errorf("error %v does not wrap ErrBadResponse", err)
			}
		})
	}
}

func TestNegotiationRoundTrip(t *testing.T) {
	// Whatever a client built with Config offers, our server's answer must
	// pass the client's validation and agree on the same Params.
	cfgs := []Config{{}, {ServerMaxWindowBits: 10}, {ClientMaxWindowBits: 9}, {ServerNoContextTakeover: true},
		{ClientNoContextTakeover: true, ServerMaxWindowBits: 8, ClientMaxWindowBits: 12}}
	for _, client := range cfgs {
		for _, server := range cfgs {
			resp, sp, ok := Negotiate([]string{client.Offer()}, server)
			if !ok {
				t.Fatalf("server %+v declined client offer %q", server, client.Offer())
			}
			cp, ok, err := ParseResponse([]string{resp}, client)
			if err != nil || !ok {
				t.Fatalf("client %+v rejected %q: %v", client, resp, err)
			}
			if cp != sp {
				t.Errorf("client %+v / server %+v: client agreed %+v, server %+v", client, server, cp, sp)
			}
		}
	}
}
