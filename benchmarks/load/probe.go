package load

import (
	"fmt"
	"io"
	"net/http"
)

// Response is what one request through Probe got back.
type Response struct {
	Status          int
	ContentEncoding string
	BodyBytes       int64 // on the wire, before any decoding
	ContentLength   int64 // -1 when the response was chunked
}

// Probe sends one GET with the given Accept-Encoding ("" sends none) and
// reports the coding and size of the body as sent.
func Probe(url, acceptEncoding string) (Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return Response{}, fmt.Errorf("load: probe: %w", err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	// A transport of its own that never decodes, so the sizes are the
	// encoded ones.
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		return Response{}, fmt.Errorf("load: probe %s: %w", url, err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return Response{}, fmt.Errorf("load: probe %s: %w", url, err)
	}
	return Response{resp.StatusCode, resp.Header.Get("Content-Encoding"), n, resp.ContentLength}, nil
}
