package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWebSocketEchoesWithPermessageDeflate(t *testing.T) {
	srv := httptest.NewServer(newHandler())
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	var msgs []string
	for i := range 20 {
		msgs = append(msgs, fmt.Sprintf(`{"id":%d,"user":"squeeze","text":"%s"}`, i, strings.Repeat("context takeover ", 10)))
	}
	replies, ext, err := echo(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/echo", msgs...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ext, "permessage-deflate") {
		t.Errorf("extension %q: permessage-deflate not negotiated", ext)
	}
	if !slices.Equal(replies, msgs) {
		t.Errorf("echoes differ from the messages sent: got %d, first %.60q", len(replies), replies)
	}
}
