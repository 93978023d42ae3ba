package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/labstack/echo/v4"

	"github.com/squeezehttp/squeeze/encoding"
)

func TestMuxCompressesThroughServeMux(t *testing.T) { checkRouter(t, muxHandler()) }

func TestChiCompressesThroughRouterUse(t *testing.T) { checkRouter(t, chiHandler()) }

func TestEchoCompressesWrappedAsAWhole(t *testing.T) { checkRouter(t, echoHandler()) }

func TestGinCompressesWrappedAsAWhole(t *testing.T) { checkRouter(t, ginHandler()) }

// chi's Recoverer sits outside the compression: a handler's panic unwinds
// through the middleware, which gives its encoder back, and Recoverer
// answers 500 on the connection's writer; the next request is served as
// usual.
func TestChiRecovererOutsideCompressionAnswersPanics(t *testing.T) {
	h := chiHandler()
	req := httptest.NewRequest("GET", "/api/panic", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req = middleware.WithLogEntry(req, quietLog{}) // Recoverer logs the panic here, not on stderr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("a panicking handler: status %d, want Recoverer's 500", rec.Code)
	}
	if rec := get(h, itemsPath, "Accept-Encoding", "gzip"); rec.Code != http.StatusOK || gunzip(t, rec.Body.Bytes()) != itemsJSON {
		t.Errorf("after a panic: status %d; want the gzip body", rec.Code)
	}
}

// The reason echoHandler wraps the Echo as a whole: with the middleware
// in e.Use, echo's HTTPErrorHandler writes after the chain has returned,
// to a writer the middleware has closed, and a 404 goes out as an empty
// 200. If this ever passes, e.Use has become an option; the README and
// echo.go say otherwise.
func TestEchoUseWrapMiddlewareLosesErrorResponses(t *testing.T) {
	e := echo.New()
	e.Logger.SetOutput(discard{})
	e.Use(echo.WrapMiddleware(encoding.Handler))
	e.GET(missingItemPath, func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusNotFound, notFoundMessage)
	})
	rec := get(e, missingItemPath, "Accept-Encoding", "gzip")
	if rec.Code == http.StatusNotFound && rec.Body.Len() > 0 {
		t.Fatalf("e.Use(echo.WrapMiddleware(encoding.Handler)) now sends echo's 404 (%d bytes): update the advice", rec.Body.Len())
	}
	if rec := get(echoHandler(), missingItemPath, "Accept-Encoding", "gzip"); rec.Code != http.StatusNotFound {
		t.Errorf("echo wrapped as a whole: status %d, want 404", rec.Code)
	}
}

// quietLog is a chi LogEntry that keeps Recoverer's log of the test's
// panic out of the output.
type quietLog struct{}

func (quietLog) Write(int, int, http.Header, time.Duration, any) {}
func (quietLog) Panic(any, []byte)                               {}

// discard swallows echo's log of the failed write.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// readmeRow is a row of the README's router table: the router's file and
// the line shown.
var readmeRow = regexp.MustCompile("^\\| \\[[^]]+\\]\\(examples/routers/(\\w+\\.go)\\) \\| `([^`]+)`")

// Every line the README shows for a router is the one its file here
// compiles and the tests above run.
func TestReadmeRouterLinesAreTheTestedOnes(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for line := range strings.Lines(string(readme)) {
		m := readmeRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		files[m[1]] = true
		src, err := os.ReadFile(m[1])
		if err != nil {
			t.Errorf("README names examples/routers/%s: %v", m[1], err)
			continue
		}
		if !strings.Contains(string(src), m[2]) {
			t.Errorf("README shows %q for %s, which does not have it", m[2], m[1])
		}
	}
	for _, f := range []string{"mux.go", "chi.go", "echo.go", "gin.go"} {
		if !files[f] {
			t.Errorf("README's router table has no row for examples/routers/%s", f)
		}
	}
}
