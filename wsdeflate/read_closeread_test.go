package wsdeflate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// closeReadServer accepts, calls CloseRead, and reports when its read side
// ends.
func closeReadServer(t *testing.T) (url string, ended chan struct{}) {
	t.Helper()
	ended = make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, nil)
		if err != nil {
			return
		}
		<-c.CloseRead(context.Background()).Done()
		close(ended)
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), ended
}

func TestCloseReadAnswersPings(t *testing.T) {
	url, _ := closeReadServer(t)
	c, ctx := dialForTest(t, url)
	go c.Read(ctx)
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("Ping to a CloseRead server: %v", err)
	}
	c.Close(StatusNormalClosure, "")
}

func TestCloseReadFailsOnDataWith1008(t *testing.T) {
	url, ended := closeReadServer(t)
	c, ctx := dialForTest(t, url)
	if err := c.Write(ctx, MessageText, []byte("unwanted")); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if _, _, err := c.Read(ctx); CloseStatus(err) != StatusPolicyViolation {
		t.Errorf("Read after sending data to a CloseRead server = %v, want its 1008 close", err)
	}
	select {
	case <-ended:
	case <-ctx.Done():
		t.Fatal("CloseRead's context was not cancelled after the connection failed")
	}
}
