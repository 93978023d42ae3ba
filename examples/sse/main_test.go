package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSSEEventArrivesCompressedBeforeTheStreamEnds(t *testing.T) {
	// An hour between events: the first one can only arrive if Flush
	// pushed it through the encoder.
	srv := httptest.NewServer(newHandler(time.Hour, writeTimeout))
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

// TestSSEStreamOutlivesWriteTimeout: with a server WriteTimeout of 300 ms
// and an event every 50 ms, twenty events (a second) arrive whole: each
// renewed the deadline. Without that the stream ends at the timeout with
// an unexpected EOF.
func TestSSEStreamOutlivesWriteTimeout(t *testing.T) {
	srv := httptest.NewUnstartedServer(newHandler(50*time.Millisecond, 300*time.Millisecond))
	srv.Config.WriteTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	for i := 0; i < 20; i++ {
		line, err := events.ReadString('\n')
		if err != nil {
			t.Fatalf("event %d: %v (the stream died at the server's WriteTimeout)", i, err)
		}
		if want := fmt.Sprintf("id: %d\n", i); line != want {
			t.Fatalf("line %q, want %q", line, want)
		}
		events.ReadString('\n') // data
		events.ReadString('\n') // the blank line
	}
}
