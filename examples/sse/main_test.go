package main

import (
	"bufio"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSSEEventArrivesCompressedBeforeTheStreamEnds(t *testing.T) {
	// An hour between events: the first one can only arrive if Flush
	// pushed it through the encoder.
	srv := httptest.NewServer(newHandler(time.Hour))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if enc := resp.Header.Get("Content-Encoding"); enc != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", enc)
	}
	done := make(chan string, 1)
	go func() {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			done <- "gzip: " + err.Error()
			return
		}
		line, _ := bufio.NewReader(zr).ReadString('\n')
		done <- line
	}()
	select {
	case line := <-done:
		if line != "id: 0\n" {
			t.Fatalf("first line %q, want \"id: 0\\n\"", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s: Flush did not reach the client through the encoder")
	}
}
